import { useEffect, useState } from "react";
import { useClient } from "urql";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import type { LiveFilter, SearchFilter } from "./filters.ts";
import { EventFields, EventMatchQuery, LiveEventsSubscription } from "./queries.ts";

export type LogEvent = ResultOf<typeof EventFields>;
export type LiveStatus = "off" | "live" | "interrupted";

/** After this much quiet, the subscription is renewed from the newest event seen. */
const RESUME_AFTER_MS = 1500;
const RETRY_AFTER_MS = 1000;

/**
 * Events committed after `startAfter` that match the search, newest first. The subscription
 * always continues from the newest event seen: after each burst it is renewed with that id as
 * `afterId` (so a reconnecting socket replays only what it missed), after an error it is
 * started again from it, and anything at or below it is ignored: nothing is missed or shown twice.
 */
export function useLiveEvents(options: {
  /** Changes whenever the search changes. */
  searchKey: string;
  liveFilter: LiveFilter;
  searchFilter: SearchFilter;
  /** The search has conditions the subscription cannot apply: ask the server about each event. */
  checkEach: boolean;
  startAfter: number | null;
}): { events: LogEvent[]; status: LiveStatus } {
  const client = useClient();
  const [events, setEvents] = useState<LogEvent[]>([]);
  const [status, setStatus] = useState<LiveStatus>("off");
  const { searchKey, startAfter } = options;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are derived from searchKey
  useEffect(() => {
    setEvents([]);
    if (startAfter === null) {
      setStatus("off");
      return;
    }
    let lastSeen = startAfter;
    let stopped = false;
    let subscription: { unsubscribe(): void } | null = null;
    let renewTimer: ReturnType<typeof setTimeout> | undefined;

    const show = (event: LogEvent) =>
      setEvents((shown) =>
        shown.some((e) => e.databaseId === event.databaseId)
          ? shown
          : [...shown, event].sort((a, b) => b.databaseId - a.databaseId),
      );

    async function accept(event: LogEvent) {
      if (!options.checkEach) return show(event);
      const match = await client
        .query(
          EventMatchQuery,
          { filter: { ...options.searchFilter, maxId: event.databaseId } },
          { requestPolicy: "network-only" },
        )
        .toPromise();
      if (!stopped && match.data?.eventSearch.edges[0]?.node.databaseId === event.databaseId) show(event);
    }

    function start(afterId: number) {
      subscription?.unsubscribe();
      // The socket tells nothing when a subscription starts: it counts as live until an error.
      setStatus("live");
      subscription = client
        .subscription(LiveEventsSubscription, { afterId, filter: options.liveFilter })
        .subscribe((result) => {
          if (stopped) return;
          if (result.error) {
            setStatus("interrupted");
            clearTimeout(renewTimer);
            renewTimer = setTimeout(() => start(lastSeen), RETRY_AFTER_MS);
            return;
          }
          const masked = result.data?.events;
          if (!masked) return;
          const event = readFragment(EventFields, masked);
          if (event.databaseId <= lastSeen) return;
          lastSeen = event.databaseId;
          void accept(event);
          clearTimeout(renewTimer);
          renewTimer = setTimeout(() => start(lastSeen), RESUME_AFTER_MS);
        });
    }

    start(startAfter);
    return () => {
      stopped = true;
      clearTimeout(renewTimer);
      subscription?.unsubscribe();
    };
  }, [client, searchKey, startAfter]);

  return { events, status };
}
