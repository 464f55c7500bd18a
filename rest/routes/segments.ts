import { z } from "zod";
import { NotFoundError, ValidationError } from "../../src/shared/errors.ts";
import { bodyFields } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";
import { strategyUsageSchema } from "../schemas.ts";
import { intParam } from "../search-params.ts";
import {
  CONSTRAINT_KEYS,
  constraintBodySchema,
  constraintSchema,
  pick,
  pickList,
} from "./strategy-shapes.ts";

const SEGMENT_FIELDS = /* GraphQL */ `
  id: databaseId name description project createdAt usedInFeatures usedInProjects
  constraints { contextName operator caseInsensitive inverted values value }
`;

const segmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  project: z.string().nullable(),
  createdAt: z.string().datetime(),
  usedInFeatures: z.number().int(),
  usedInProjects: z.number().int(),
  constraints: z.array(constraintSchema),
});

const segmentBodySchema = z.object({
  name: z.string(),
  description: z.string().nullable().optional(),
  project: z.string().nullable().optional(),
  constraints: z.array(constraintBodySchema).optional(),
});

function segmentInput(body: unknown) {
  const s = pick(body ?? {}, ["name", "description", "project", "constraints"]);
  if (!s || typeof s !== "object" || Array.isArray(s))
    throw new ValidationError("The body must be a segment object.");
  const segment = s as Record<string, unknown>;
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
  {
    method: "GET",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Get a segment",
    document: `query Segment($id: Int!) { segment(id: $id) { ${SEGMENT_FIELDS} } }`,
    variables: (req) => ({ id: intParam(req, "id") }),
    respond: (data, req) => {
      if (!data.segment) throw new NotFoundError(`Could not find segment with id ${req.params.id}`);
      return data.segment;
    },
    schemas: { response: segmentSchema },
    errors: [400, 404],
  },
  {
    method: "GET",
    path: "/api/admin/segments",
    tag: "Segments",
    summary: "List segments",
    document: `query Segments { segments { ${SEGMENT_FIELDS} } }`,
    respond: (data) => ({ segments: data.segments }),
    schemas: { response: z.object({ segments: z.array(segmentSchema) }) },
    errors: [],
  },
  {
    method: "POST",
    path: "/api/admin/segments",
    tag: "Segments",
    summary: "Create a segment",
    description: "Answers 201 with the segment; 409 when the name is taken.",
    document: `mutation CreateSegment($input: SegmentInput!) { createSegment(input: $input) { ${SEGMENT_FIELDS} } }`,
    variables: (req) => ({ input: segmentInput(req.body) }),
    status: 201,
    schemas: { body: segmentBodySchema, response: segmentSchema },
    errors: [400, 403, 404, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Update a segment",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) when a strategy using the segment is in an environment requiring change requests: propose an `updateSegment` change there instead.",
    document: `mutation UpdateSegment($id: Int!, $input: SegmentInput!) { updateSegment(id: $id, input: $input) { id } }`,
    variables: (req) => ({ id: intParam(req, "id"), input: segmentInput(req.body) }),
    status: 204,
    schemas: { body: segmentBodySchema },
    errors: [400, 403, 404, 409],
  },
  {
    method: "DELETE",
    path: "/api/admin/segments/:id",
    tag: "Segments",
    summary: "Delete a segment",
    description: "409 ConflictError while strategies use the segment.",
    document: "mutation DeleteSegment($id: Int!) { deleteSegment(id: $id) }",
    variables: (req) => ({ id: intParam(req, "id") }),
    status: 204,
    errors: [400, 403, 404, 409],
  },
  {
    method: "POST",
    path: "/api/admin/segments/validate",
    tag: "Segments",
    summary: "Check a name for a new segment",
    description: "204 when no segment holds the name; 409 when one does.",
    document: `query ValidateSegmentName($name: String!) { validateSegmentName(name: $name) }`,
    variables: (req) => ({ name: (req.body as { name?: unknown } | undefined)?.name }),
    status: 204,
    schemas: { body: z.strictObject({ name: z.string() }) },
    errors: [400, 409],
  },
  {
    method: "GET",
    path: "/api/admin/segments/:id/strategies",
    tag: "Segments",
    summary: "The strategies that use a segment",
    description:
      "`{strategies: [{id, featureName, projectId, environment, strategyName}]}`; empty for an unknown segment.",
    document: `query SegmentStrategies($id: Int!) {
      segmentStrategies(id: $id) { id: databaseId featureName projectId: project environment strategyName: name } }`,
    variables: (req) => ({ id: intParam(req, "id") }),
    respond: (data) => ({ strategies: data.segmentStrategies }),
    schemas: {
      response: strategyUsageSchema,
    },
    errors: [400],
  },
  {
    method: "GET",
    path: "/api/admin/segments/strategies/:strategyId",
    tag: "Segments",
    summary: "The segments a strategy uses",
    description: "`{segments}`; empty for an unknown strategy.",
    document: `query StrategySegments($strategyId: String!) { strategySegments(strategyId: $strategyId) { ${SEGMENT_FIELDS} } }`,
    variables: (req) => ({ strategyId: req.params.strategyId }),
    respond: (data) => ({ segments: data.strategySegments }),
    schemas: { response: z.object({ segments: z.array(segmentSchema) }) },
    errors: [],
  },
  {
    method: "POST",
    path: "/api/admin/segments/strategies",
    tag: "Segments",
    summary: "Update strategy segments",
    description:
      "Sets the strategy's segments to exactly `segmentIds` (feature-strategy-update); 404 unless the strategy is in that project and environment. Answers 201 with the request.",
    document: `mutation SetStrategySegments($projectId: String!, $environmentId: String!, $strategyId: String!, $segmentIds: [Int!]!) {
      setStrategySegments(projectId: $projectId, environmentId: $environmentId, strategyId: $strategyId, segmentIds: $segmentIds) {
        projectId: project strategyId: databaseId environmentId: environment segmentIds: segments } }`,
    variables: ({ body }) => bodyFields(body, ["projectId", "environmentId", "strategyId", "segmentIds"]),
    status: 201,
    respond: (data) => data.setStrategySegments,
    schemas: {
      body: strategySegmentsSchema,
      response: strategySegmentsSchema,
    },
    errors: [400, 403, 404],
  },
]);
