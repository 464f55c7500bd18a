import type { VariablesOf } from "../../lib/graphql.ts";
import type { EventLogQuery, LiveEventsSubscription } from "./queries.ts";

export type SearchFilter = NonNullable<VariablesOf<typeof EventLogQuery>["filter"]>;
export type LiveFilter = NonNullable<VariablesOf<typeof LiveEventsSubscription>["filter"]>;

/** URL query parameters of the event log; lists are comma-separated (`type=a,b`). */
export const LIST_PARAMS = ["type", "project", "feature", "environment", "createdBy"] as const;
export const TEXT_PARAMS = ["q", "scope", "from", "to", "until"] as const;

function listOf(params: URLSearchParams, name: string): string[] {
  return (params.get(name) ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

function equality(values: string[]) {
  if (values.length === 0) return null;
  return { operator: values.length === 1 ? ("IS" as const) : ("IS_ANY_OF" as const), values };
}

/** The event search filter (spec 4.4) the URL describes. */
export function searchFilterOf(params: URLSearchParams): SearchFilter {
  const scope = params.get("scope");
  return {
    type: equality(listOf(params, "type")),
    project: equality(listOf(params, "project")),
    feature: equality(listOf(params, "feature")),
    environment: equality(listOf(params, "environment")),
    createdBy: equality(listOf(params, "createdBy")),
    query: params.get("q") || null,
    queryScope: scope === "TYPE_ACTOR_DATA" ? "TYPE_ACTOR_DATA" : null,
    from: params.get("from") || null,
    to: params.get("to") || null,
    until: params.get("until") || null,
  };
}

/** The part of the search the live subscription can filter on by itself. */
export function liveFilterOf(params: URLSearchParams): LiveFilter {
  const list = (name: string) => {
    const values = listOf(params, name);
    return values.length > 0 ? values : null;
  };
  return {
    types: list("type"),
    projects: list("project"),
    features: list("feature"),
    environments: list("environment"),
  };
}

/**
 * Whether the search has conditions the subscription cannot express (author, dates, text):
 * each live event must then be checked against the search itself.
 */
export function needsServerCheck(params: URLSearchParams): boolean {
  return ["createdBy", "q", "from", "to"].some((name) => Boolean(params.get(name)));
}
