import { z } from "zod";
import { graphql } from "../graphql.ts";
import { firstFieldSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const CHANGES =
  graphql(`query EnvironmentDiff($project: String!, $environment: String!, $from: DateTime, $to: DateTime) {
  changes(project: $project, environment: $environment, from: $from, to: $to) {
    name exact fields { field environment before after moreEvents events { id type createdBy createdAt } } } }`);

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
    document: CHANGES,
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
        features: firstFieldSchema(CHANGES),
      }),
    },
  }),
]);
