import { type FormEvent, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useQuery } from "urql";
import {
  ProjectOptions,
  useProjectAndEnvironmentChoices,
  userChoiceLabel,
  useUserChoices,
} from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { InstantPicker } from "../../components/InstantPicker.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import { readFragment } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { LIST_PARAMS, liveFilterOf, needsServerCheck, searchFilterOf, TEXT_PARAMS } from "./filters.ts";
import { EventFields, EventLogQuery } from "./queries.ts";
import { type LogEvent, useLiveEvents } from "./useLiveEvents.ts";

const PAGE_SIZE = 50;

/** The audit log (spec 4.4): searchable, paged, and live on its first page. */
export default function EventsPage() {
  const [params, setParams] = useSearchParams();
  const searchKey = filterKeyOf(params);
  const [paging, setPaging] = useState<{ key: string; cursors: string[] }>({ key: searchKey, cursors: [] });
  const cursors = paging.key === searchKey ? paging.cursors : [];
  const searchFilter = useMemo(() => searchFilterOf(new URLSearchParams(searchKey)), [searchKey]);
  const [result] = useQuery({
    query: EventLogQuery,
    variables: { filter: searchFilter, first: PAGE_SIZE, after: cursors.at(-1) ?? null },
    requestPolicy: "cache-and-network",
  });
  const page = result.data?.eventSearch;
  const firstPage = cursors.length === 0;
  const newest = result.data?.newest.edges[0]?.node.databaseId ?? 0;
  const until = params.get("until");
  const live = useLiveEvents({
    searchKey,
    searchFilter,
    liveFilter: useMemo(() => liveFilterOf(new URLSearchParams(searchKey)), [searchKey]),
    checkEach: needsServerCheck(new URLSearchParams(searchKey)),
    // The log as it was at an instant gets no new events.
    startAfter: firstPage && !until && result.data && !result.stale ? newest : null,
  });

  const stored = (page?.edges ?? []).map((edge) => readFragment(EventFields, edge.node));
  const storedIds = new Set(stored.map((e) => e.databaseId));
  const fresh = firstPage ? live.events.filter((e) => !storedIds.has(e.databaseId)) : [];
  const shown = [...fresh, ...stored];

  return (
    <>
      <PageTitle
        actions={
          <span role="status" className={live.status === "live" ? "badge on" : "badge"}>
            {until
              ? "As it was: live updates off"
              : live.status === "live"
                ? "Live"
                : live.status === "interrupted"
                  ? "Live updates interrupted, reconnecting…"
                  : firstPage
                    ? "Connecting…"
                    : "Live updates on the first page only"}
          </span>
        }
      >
        Event log
      </PageTitle>
      <LogAsOf
        until={until}
        onChange={(next) => {
          const changed = new URLSearchParams(params);
          if (next) changed.set("until", next.toISOString());
          else changed.delete("until");
          // The slider moves in steps: one history entry for the whole move.
          setParams(changed, { replace: Boolean(next && until) });
        }}
      />
      <EventFilters
        key={searchKey}
        params={params}
        onApply={(next) => setParams(next)}
        problem={problemOf(result.error)}
      />
      {/* The search's errors show in the filter form, next to the filter they concern. */}
      <Pending fetching={result.fetching && !page} />
      {page && (
        <>
          <p className="count">{page.totalCount + fresh.length} events</p>
          {shown.length > 0 && <EventTable events={shown} />}
          <div className="pager">
            <button
              type="button"
              disabled={firstPage}
              onClick={() => setPaging({ key: searchKey, cursors: cursors.slice(0, -1) })}
            >
              Newer events
            </button>
            <button
              type="button"
              disabled={!page.pageInfo.hasNextPage}
              onClick={() =>
                page.pageInfo.endCursor &&
                setPaging({ key: searchKey, cursors: [...cursors, page.pageInfo.endCursor] })
              }
            >
              Older events
            </button>
          </div>
        </>
      )}
    </>
  );
}

/**
 * Time travel on the event log: a slider (or a typed instant) shows the log as it was then,
 * newest first from that instant; "Back to now" returns to the live log.
 */
function LogAsOf(props: { until: string | null; onChange(until: Date | null): void }) {
  const [now, setNow] = useState(() => new Date());
  const value = props.until ? new Date(props.until) : now;
  return (
    <div className="toolbar">
      <InstantPicker label="Log as of" value={value} now={now} onChange={props.onChange} />
      <button
        type="button"
        className="secondary"
        disabled={!props.until}
        onClick={() => {
          setNow(new Date());
          props.onChange(null);
        }}
      >
        Back to now
      </button>
    </div>
  );
}

/** The filter parameters only, in a stable order: the identity of a search. */
function filterKeyOf(params: URLSearchParams): string {
  const key = new URLSearchParams();
  for (const name of [...LIST_PARAMS, ...TEXT_PARAMS]) {
    const value = params.get(name);
    if (value) key.set(name, value);
  }
  return key.toString();
}

function EventFilters(props: {
  params: URLSearchParams;
  onApply(next: URLSearchParams): void;
  problem: ReturnType<typeof problemOf>;
}) {
  const { isAdmin } = useSession();
  const choices = useProjectAndEnvironmentChoices();
  const users = useUserChoices();
  const value = (name: string) => props.params.get(name) ?? "";

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of [...LIST_PARAMS, ...TEXT_PARAMS]) {
      const entry = String(data.get(name) ?? "").trim();
      if (entry) next.set(name, entry);
    }
    const until = props.params.get("until"); // set by the time slider, not by this form
    if (until) next.set("until", until);
    props.onApply(next);
  }

  return (
    <form className="toolbar event-filters" onSubmit={submit} aria-label="Filter events">
      <Field label="Text" name="q" type="search" defaultValue={value("q")} problem={props.problem} />
      <SelectField label="Text in" name="scope" defaultValue={value("scope")}>
        <option value="">Event data</option>
        <option value="TYPE_ACTOR_DATA">Type, author and data</option>
      </SelectField>
      <Field
        label="Type"
        name="type"
        defaultValue={value("type")}
        placeholder="feature-created, …"
        list="event-types"
        problem={props.problem}
      />
      <Field label="Project" name="project" defaultValue={value("project")} list="event-projects" />
      <Field label="Flag" name="feature" defaultValue={value("feature")} />
      <Field
        label="Environment"
        name="environment"
        defaultValue={value("environment")}
        list="event-environments"
      />
      {isAdmin && users.data ? (
        <SelectField label="Created by" name="createdBy" defaultValue={value("createdBy")}>
          <option value="">Anyone</option>
          {users.data.users.map((user) => (
            <option key={user.id} value={user.databaseId}>
              {userChoiceLabel(user)}
            </option>
          ))}
        </SelectField>
      ) : (
        <Field
          label="Created by (user id)"
          name="createdBy"
          defaultValue={value("createdBy")}
          inputMode="numeric"
        />
      )}
      <Field label="From" name="from" type="date" defaultValue={value("from")} problem={props.problem} />
      <Field label="To" name="to" type="date" defaultValue={value("to")} problem={props.problem} />
      <button type="submit">Search</button>
      <button type="button" className="secondary" onClick={() => props.onApply(new URLSearchParams())}>
        Clear filters
      </button>
      <datalist id="event-projects">
        <ProjectOptions projects={choices.data?.projects} />
      </datalist>
      <datalist id="event-environments">
        {choices.data?.environments.map((e) => (
          <option key={e.id} value={e.name} />
        ))}
      </datalist>
      <p className="hint">Separate several values with commas. Dates are UTC days, both inclusive.</p>
      <ProblemBanner problem={props.problem} />
    </form>
  );
}

function EventTable(props: { events: LogEvent[] }) {
  return (
    <Table className="events" columns={["When", "Event", "Flag", "Project / environment", "By"]}>
      {props.events.map((event) => (
        <tr key={event.id} data-event-id={event.databaseId}>
          <td>
            <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time>
          </td>
          <td>
            <span className="event-type">{event.type}</span>
            {event.summary && <p className="event-summary">{plainText(event.summary)}</p>}
            {(event.data != null || event.preData != null) && (
              <details>
                <summary>Data of event {event.databaseId}</summary>
                {event.preData != null && (
                  <>
                    <p className="muted">Before</p>
                    <pre>{JSON.stringify(event.preData, null, 2)}</pre>
                  </>
                )}
                {event.data != null && (
                  <>
                    <p className="muted">After</p>
                    <pre>{JSON.stringify(event.data, null, 2)}</pre>
                  </>
                )}
              </details>
            )}
          </td>
          <td>
            {event.featureName && event.project ? (
              <Link to={`/projects/${event.project}/flags/${event.featureName}`}>{event.featureName}</Link>
            ) : (
              (event.featureName ?? "—")
            )}
            {event.tags.map((tag) => (
              <span key={`${tag.type}:${tag.value}`} className="badge">
                {tag.type}:{tag.value}
              </span>
            ))}
          </td>
          <td>
            {event.project ?? "—"}
            {event.environment && ` / ${event.environment}`}
          </td>
          <td>{event.createdBy}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Summaries are short markdown sentences: shown as text, without the emphasis marks. */
function plainText(markdown: string): string {
  return markdown.replace(/\*\*|__|`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}
