import { BENCH_USER_TOKEN, HOT_FLAG } from "./dataset.ts";

/** One load scenario: a request the dashboard (or an API user) really sends. */
export type Scenario = {
  name: string;
  group: "flag search" | "event search";
  path: string;
  method?: "GET" | "POST";
  body?: string;
  token?: string;
  /** Target p99 in ms from issue 5 (PostgreSQL, 2 cores). */
  targetP99?: number;
};

const graphql = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });

const FEATURE_SEARCH_GQL = `query($filter: FeatureSearchFilter, $sort: FeatureSearchSort) {
  featureSearch(filter: $filter, sort: $sort, favoritesFirst: true, first: 25) {
    totalCount edges { node { name type project stale favorite createdAt segments dependencyType
      tags { type value } environments { name enabled yes no hasStrategies } } } } }`;

const EVENT_SEARCH_GQL = `query($filter: EventSearchFilter) {
  eventSearch(filter: $filter, first: 50) { totalCount edges { node { id type featureName createdAt data } } } }`;

const flag = (n: number) => `flag-${String(n).padStart(5, "0")}`;
const DASHBOARD = "sortBy=createdAt&sortOrder=desc&favoritesFirst=true&limit=25";

export function scenarios(): Scenario[] {
  const fs = (name: string, filter: string, targetP99 = 25): Scenario => ({
    name,
    group: "flag search",
    path: `/api/admin/search/features?${DASHBOARD}${filter ? `&${filter}` : ""}`,
    token: BENCH_USER_TOKEN,
    targetP99,
  });
  const es = (name: string, query: string, targetP99 = 50): Scenario => ({
    name,
    group: "event search",
    path: `/api/admin/search/events?${query}`,
    targetP99,
  });
  return [
    fs("dashboard default (REST)", ""),
    {
      name: "dashboard without favoritesFirst (REST)",
      group: "flag search",
      path: "/api/admin/search/features?sortBy=createdAt&sortOrder=desc&limit=25",
      token: BENCH_USER_TOKEN,
      targetP99: 25,
    },
    {
      name: "dashboard default (GraphQL)",
      group: "flag search",
      path: "/graphql",
      method: "POST",
      body: graphql(FEATURE_SEARCH_GQL, { sort: { field: "CREATED_AT", direction: "DESC" } }),
      token: BENCH_USER_TOKEN,
      targetP99: 25,
    },
    fs("query=flag-004", "query=flag-004"),
    fs("query=payments (description + tags)", "query=payments"),
    fs("project=IS:project-07", "project=IS:project-07"),
    fs("type=IS_ANY_OF:experiment,permission", "type=IS_ANY_OF:experiment,permission"),
    fs("createdBy=IS_NOT:1", "createdBy=IS_NOT:1"),
    fs("state=IS:potentially-stale", "state=IS:potentially-stale"),
    fs("lifecycle=IS:live", "lifecycle=IS:live"),
    fs("tag=INCLUDE:team:search", "tag=INCLUDE:team:search"),
    fs("tag=INCLUDE_ALL_OF:team:growth,kind:kind-3", "tag=INCLUDE_ALL_OF:team:growth,kind:kind-3"),
    fs("segment=INCLUDE:segment-06", "segment=INCLUDE:segment-06"),
    fs("status=production:enabled", "status=production:enabled"),
    fs("createdAt=IS_ON_OR_AFTER:<90 days ago>", `createdAt=IS_ON_OR_AFTER:${daysAgo(90)}`),
    fs("archived=true", "archived=true"),
    fs("sortBy=environment:production", "sortBy=environment:production"),
    fs("sortBy=lastSeenAt", "sortBy=lastSeenAt"),
    es("no filter (the event log)", "limit=50"),
    es("feature=IS:<flag>", `feature=IS:${flag(4242)}`),
    es("project=IS:project-07", "project=IS:project-07"),
    es("type=IS:feature-strategy-update", "type=IS:feature-strategy-update"),
    es("createdBy=IS:1007", "createdBy=IS:1007"),
    es("from/to one day", `from=IS:${daysAgo(30)}&to=IS:${daysAgo(30)}`),
    es("project=IS:project-07&type=IS:feature-updated", "project=IS:project-07&type=IS:feature-updated"),
    es("query=<flag name> (free text)", `query=${flag(4242)}`, 150),
    es("query=Change 123456 (free text)", "query=Change%20123456", 150),
    es("query=growth (free text, common)", "query=growth", 150),
    es("query=Change 12 for (free text, only common words)", "query=Change%2012%20for", 150),
    {
      name: "events of a flag (4.8, newest 50 of 100)",
      group: "event search",
      path: `/api/admin/events/${flag(4242)}`,
      targetP99: 50,
    },
    {
      name: "events of the hot flag (4.8, newest 50 of 1,928)",
      group: "event search",
      path: `/api/admin/events/${flag(HOT_FLAG)}`,
      targetP99: 50,
    },
    {
      // Its collaborators come from its whole history (50 creators, none of them a user here).
      name: "record of the hot flag (GET the flag, 1,928 events)",
      group: "event search",
      path: `/api/admin/projects/project-02/features/${flag(HOT_FLAG)}`,
      targetP99: 50,
    },
    {
      name: "eventSearch feature filter (GraphQL)",
      group: "event search",
      path: "/graphql",
      method: "POST",
      body: graphql(EVENT_SEARCH_GQL, { filter: { feature: { operator: "IS", values: [flag(4242)] } } }),
      targetP99: 50,
    },
  ];
}

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}
