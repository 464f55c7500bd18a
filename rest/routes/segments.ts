import { z } from "zod";
import { NotFoundError, ValidationError } from "../../src/shared/errors.ts";
import { bodyRecord } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { strategyUsageSchema } from "../schemas.ts";
import { CONSTRAINT_KEYS, constraintBodySchema, pick, pickList } from "./strategy-shapes.ts";

const SegmentFields = graphql(`
  fragment SegmentFields on Segment {
    id: databaseId name description project createdAt usedInFeatures usedInProjects
    constraints { contextName operator caseInsensitive inverted values value }
  }
`);

const segmentSchema = resultSchema(SegmentFields);

const segmentBodySchema = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  project: z.string().nullable().optional(),
  constraints: z.array(constraintBodySchema).optional(),
});

/** The segment's own fields of a body (Unleash bodies carry read-only extras such as `id`). */
function segmentInput(body: unknown) {
  const s = pick(body ?? {}, ["name", "description", "project", "constraints"]);
  if (!s || typeof s !== "object" || Array.isArray(s))
    throw new ValidationError("The body must be a segment object.");
  const segment = bodyRecord(s);
  return {
    ...segment,
    ...(segment.constraints ? { constraints: pickList(segment.constraints, CONSTRAINT_KEYS) } : {}),
  };
}

const strategySegmentsSchema = z.object({
  projectId: z.string(),
  strategyId: z.string(),
  environmentId: z.string(),
  segmentIds: z.array(z.number().int().min(0)),
});

export const segmentRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Get a segment",
    document: graphql(`query Segment($id: Int!) { segment(id: $id) { ...SegmentFields } }`, [SegmentFields]),
    variables: { id: "path.id:int" },
    respond: ({ segment }, req) => {
      if (!segment) throw new NotFoundError(`Could not find segment with id ${req.params.id}`);
      return segment;
    },
    schemas: { response: segmentSchema },
    errors: [400, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/segments",
    tag: "Segments",
    summary: "List segments",
    document: graphql(`query Segments { segments { ...SegmentFields } }`, [SegmentFields]),
    respond: (data) => ({ segments: data.segments }),
    schemas: { response: z.object({ segments: z.array(segmentSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/segments",
    tag: "Segments",
    summary: "Create a segment",
    description: "Answers 201 with the segment; 409 when the name is taken.",
    document: graphql(
      `mutation CreateSegment($input: SegmentInput!) { createSegment(input: $input) { ...SegmentFields } }`,
      [SegmentFields],
    ),
    variables: { input: ({ body }) => segmentInput(body) },
    status: 201,
    schemas: { body: segmentBodySchema, response: segmentSchema },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Update a segment",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) when a strategy using the segment is in an environment requiring change requests: propose an `updateSegment` change there instead.",
    document: graphql(
      `mutation UpdateSegment($id: Int!, $input: SegmentInput!) { updateSegment(id: $id, input: $input) { id } }`,
    ),
    variables: { id: "path.id:int", input: ({ body }) => segmentInput(body) },
    status: 204,
    schemas: { body: segmentBodySchema },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Delete a segment",
    description: "409 ConflictError while strategies use the segment.",
    document: graphql("mutation DeleteSegment($id: Int!) { deleteSegment(id: $id) }"),
    variables: { id: "path.id:int" },
    status: 204,
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/segments/validate",
    tag: "Segments",
    summary: "Check a name for a new segment",
    description: "204 when no segment holds the name; 409 when one does.",
    document: graphql(`query ValidateSegmentName($name: String!) { validateSegmentName(name: $name) }`),
    variables: { name: "body.name" },
    status: 204,
    schemas: { body: z.strictObject({ name: z.string() }) },
    errors: [400, 409],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/segments/:id/strategies",
    tag: "Segments",
    summary: "The strategies that use a segment",
    description:
      "`{strategies: [{id, featureName, projectId, environment, strategyName}]}`; empty for an unknown segment.",
    document: graphql(`query SegmentStrategies($id: Int!) {
      segmentStrategies(id: $id) { id: databaseId featureName projectId: project environment strategyName: name } }`),
    variables: { id: "path.id:int" },
    respond: (data) => ({ strategies: data.segmentStrategies }),
    schemas: {
      response: strategyUsageSchema,
    },
    errors: [400],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/segments/strategies/:strategyId",
    tag: "Segments",
    summary: "The segments a strategy uses",
    description: "`{segments}`; empty for an unknown strategy.",
    document: graphql(
      `query StrategySegments($strategyId: String!) { strategySegments(strategyId: $strategyId) { ...SegmentFields } }`,
      [SegmentFields],
    ),
    variables: { strategyId: "path.strategyId" },
    respond: (data) => ({ segments: data.strategySegments }),
    schemas: { response: z.object({ segments: z.array(segmentSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/segments/strategies",
    tag: "Segments",
    summary: "Update strategy segments",
    description:
      "Sets the strategy's segments to exactly `segmentIds` (feature-strategy-update); 404 unless the strategy is in that project and environment. Answers 201 with the request.",
    document:
      graphql(`mutation SetStrategySegments($projectId: String!, $environmentId: String!, $strategyId: String!, $segmentIds: [Int!]!) {
      setStrategySegments(projectId: $projectId, environmentId: $environmentId, strategyId: $strategyId, segmentIds: $segmentIds) {
        projectId: project strategyId: databaseId environmentId: environment segmentIds: segments } }`),
    variables: {
      projectId: "body.projectId?",
      environmentId: "body.environmentId?",
      strategyId: "body.strategyId?",
      segmentIds: "body.segmentIds?",
    },
    status: 201,
    schemas: {
      body: strategySegmentsSchema,
      response: strategySegmentsSchema,
    },
    errors: [400, 403, 404],
  }),
]);
