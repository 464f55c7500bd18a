import { useMemo } from "react";
import { useQuery, useSubscription } from "urql";
import { Pending } from "../../components/layout.tsx";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useFlag } from "./context.ts";
import { EventFields, FlagEventsQuery, FlagEventsSubscription } from "./queries.ts";

type FlagEvent = ResultOf<typeof EventFields>;

/**
 * The flag's events, newest first: the stored ones, then each new one as it is committed
 * (the `events` subscription replays from the newest shown, so none is missed in between).
 */
export function FlagHistory() {
  const { project, name } = useFlag();
  const filter = useMemo(() => ({ features: [name], projects: [project] }), [name, project]);
  const [stored] = useQuery({ query: FlagEventsQuery, variables: { filter } });
  const initial = useMemo(
    () => (stored.data?.events.edges ?? []).map((e) => readFragment(EventFields, e.node)),
    [stored.data],
  );
  const afterId = initial.reduce((max, e) => Math.max(max, e.databaseId), 0);
  const [live] = useSubscription(
    { query: FlagEventsSubscription, variables: { afterId, filter }, pause: !stored.data },
    (seen: FlagEvent[] = [], message) => [...seen, readFragment(EventFields, message.events)],
  );
  const events = mergeNewestFirst(initial, live.data ?? []);

  return (
    <section className="card" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <Pending fetching={stored.fetching && !stored.data} error={stored.error} />
      <ol className="event-list" aria-label="Flag history">
        {events.map((event) => (
          <li key={event.databaseId}>
            <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time>{" "}
            <strong>{event.type}</strong>
            {event.environment && <span className="badge">{event.environment}</span>}{" "}
            <span className="muted">by {event.createdBy}</span>
            {event.label && <p>{event.label}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function mergeNewestFirst(stored: FlagEvent[], live: FlagEvent[]): FlagEvent[] {
  const byId = new Map<number, FlagEvent>();
  for (const e of [...stored, ...live]) byId.set(e.databaseId, e);
  return [...byId.values()].sort((a, b) => b.databaseId - a.databaseId);
}
