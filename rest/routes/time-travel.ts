import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const changeEvent = z.object({
  id: z.number().int(),
  type: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
});
const fieldChange = z.object({
  field: z.string(),
  environment: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  events: z.array(changeEvent).describe("The events that changed it, most recent first (at most 10)."),
  moreEvents: z.boolean().describe("Whether there were more such events than listed."),
});

export const timeTravelRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/environments/:environment/diff",
    tag: "Time travel",
    summary: "What changed in an environment between two instants",
    description:
      "Per flag of the project, the fields that differ in the environment between `from` and `to` " +
      "(RFC 3339, at most 31 days apart; `to` defaults to now, `from` to a day before `to`), each with the " +
      "events that changed it.",
    document:
      graphql(`query EnvironmentDiff($project: String!, $environment: String!, $from: DateTime, $to: DateTime) {
      changes(project: $project, environment: $environment, from: $from, to: $to) {
        name exact fields { field environment before after moreEvents events { id type createdBy createdAt } } } }`),
    variables: {
      project: "path.projectId",
      environment: "path.environment",
      from: "query.from",
      to: "query.to",
    },
    respond: (data, { params }) => ({
      project: params.projectId,
      environment: params.environment,
      features: data.changes,
    }),
    schemas: {
      query: z.object({
        from: z.string().optional().describe("Start instant (RFC 3339); default: a day before `to`."),
        to: z.string().optional().describe("End instant (RFC 3339); default: now."),
      }),
      response: z.object({
        project: z.string(),
        environment: z.string(),
        features: z.array(z.object({ name: z.string(), exact: z.boolean(), fields: z.array(fieldChange) })),
      }),
    },
  }),
]);
