import { z } from "zod";
import { nodesOf } from "../../src/shared/pagination.ts";
import { EventFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { eventSchema } from "../schemas.ts";
import { BadParameter } from "../search-params.ts";

const legacySearchBody = z
  .object({
    type: z.string().optional().describe("One event type; exact, case-sensitive."),
    project: z.string().optional().describe("Project id; exact, case-sensitive."),
    feature: z.string().optional().describe("Flag name; exact, case-sensitive."),
    query: z.string().optional().describe("Text in the event type, creating user's name or email, or data."),
    limit: z.number().int().min(1).max(100).optional().describe("1 to 100; default 100."),
    offset: z.number().int().min(0).optional().describe("Id of the newest event to list (0: the newest)."),
  })
  .describe("All fields optional.");

/** 4.13's body, checked against its own limits (1..100 is narrower than event search's). */
function legacySearchVariables(body: unknown) {
  const parsed = legacySearchBody.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadParameter(`Invalid value for "${issue?.path.join(".")}": ${issue?.message}`);
  }
  const { type, project, feature, query, limit, offset } = parsed.data;
  const exact = (value: string | undefined) =>
    value === undefined ? undefined : { operator: "IS", values: [value] };
  return {
    filter: {
      type: exact(type),
      project: exact(project),
      feature: exact(feature),
      query,
      queryScope: "TYPE_ACTOR_DATA",
      maxId: offset ? String(offset) : undefined,
    },
    first: limit ?? 100,
  };
}

export const eventRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/events",
    tag: "Events",
    summary: "List events (deprecated)",
    description:
      "Newest first: the latest 100, or with `project` that project's latest 50 (as Unleash); `totalEvents` counts every match. An unknown project answers an empty list. Events the caller may not read are left out (only admins see events of no project).",
    deprecated: true,
    document: graphql(
      `query RecentEvents($filter: EventFilter, $first: Int) {
        events(filter: $filter, first: $first) { totalCount edges { node { ...EventFields } } } }`,
      [EventFields],
    ),
    variables: ({ query }) => {
      const project = query.get("project");
      return project ? { filter: { projects: [project] }, first: 50 } : { first: 100 };
    },
    respond: (data) => {
      const { nodes, totalCount } = nodesOf(data.events);
      return { version: 1, events: nodes, totalEvents: totalCount };
    },
    schemas: {
      query: z.object({ project: z.string().optional().describe("Only this project's events.") }),
      response: z.object({
        version: z.literal(1),
        events: z.array(eventSchema),
        totalEvents: z.number().int(),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/event-creators",
    tag: "Events",
    summary: "Who made the recorded changes",
    description: "Distinct authors `{id, name}` of the events the caller may read.",
    document: graphql(`query EventCreators { eventCreators { id name } }`),
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/events/:featureName",
    tag: "Events",
    summary: "List events of a flag (spec 4.8)",
    description:
      "The flag's newest events first: 50 unless `limit` (at most 1000) says otherwise, after `offset`; " +
      "`totalEvents` counts them all (as Unleash). An unknown flag answers 200 with an empty list.",
    deprecated: true,
    document: graphql(
      `query FeatureEvents($filter: EventFilter!, $first: Int, $offset: Int) {
        events(filter: $filter, first: $first, offset: $offset) { totalCount edges { node { ...EventFields } } } }`,
      [EventFields],
    ),
    variables: {
      filter: ({ params }) => ({ features: [params.featureName] }),
      first: "query.limit:int",
      offset: "query.offset:int",
    },
    respond: (data, { params }) => {
      const { nodes, totalCount } = nodesOf(data.events);
      return { version: 1, toggleName: params.featureName, events: nodes, totalEvents: totalCount };
    },
    schemas: {
      query: z.object({
        limit: z.string().optional().describe("Events per answer, 1 to 1000; default 50"),
        offset: z.string().optional().describe("Newest events to skip; default 0"),
      }),
      response: z.object({
        version: z.literal(1),
        toggleName: z.string(),
        events: z.array(eventSchema),
        totalEvents: z.number().int(),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/events/search",
    tag: "Events",
    summary: "Search events (deprecated, spec 4.13)",
    description:
      "Newest first. `offset` is the id of the newest event to list; `totalEvents` counts every match. Use GET /api/admin/search/events instead.",
    deprecated: true,
    headers: { Deprecation: "true", Link: '</api/admin/search/events>; rel="successor-version"' },
    document: graphql(
      `query LegacyEventSearch($filter: EventSearchFilter, $first: Int) {
        eventSearch(filter: $filter, first: $first) { totalCount edges { node { ...EventFields } } } }`,
      [EventFields],
    ),
    variables: ({ body }) => legacySearchVariables(body),
    respond: (data) => {
      const { nodes, totalCount } = nodesOf(data.eventSearch);
      return { version: 1, events: nodes, totalEvents: totalCount };
    },
    schemas: {
      body: legacySearchBody,
      response: z.object({
        version: z.literal(1),
        events: z.array(eventSchema),
        totalEvents: z.number().int(),
      }),
    },
    errors: [400],
  }),
]);
