import { useEffect, useMemo } from "react";
import { useSubscription } from "urql";
import { graphql, type VariablesOf } from "./graphql.ts";

const LiveEvents = graphql(`
  subscription LiveEvents($filter: EventFilter) { events(filter: $filter) { id } }
`);

type Filter = NonNullable<VariablesOf<typeof LiveEvents>["filter"]>;

/**
 * Calls `refetch` after each event committed from now on that `filter` matches (the `events`
 * subscription), so a page showing data those events change stays current. Several events in a
 * burst may cause several refetches; each reads the latest state.
 */
export function useRefetchOnEvents(filter: Filter, refetch: () => void): void {
  const key = JSON.stringify(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter is compared by value (key)
  const variables = useMemo(() => ({ filter }), [key]);
  const [result] = useSubscription({ query: LiveEvents, variables });
  const lastId = result.data?.events.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new event id is what triggers it
  useEffect(() => {
    if (lastId !== undefined) refetch();
  }, [lastId]);
}
