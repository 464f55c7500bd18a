import { useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { type Client, useMutation, useQuery } from "urql";
import { EnvironmentStates } from "../../components/EnvironmentStates.tsx";
import { ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import type { ResultOf } from "../../lib/graphql.ts";
import { useRefetchOnEvents } from "../../lib/live.ts";
import { CreateFlagForm } from "./CreateFlagForm.tsx";
import { FlagFilters } from "./FlagFilters.tsx";
import { FavoriteFlag, FilterOptions, FlagSearch, UnfavoriteFlag } from "./queries.ts";
import { variablesOf } from "./search-state.ts";

type Page = ResultOf<typeof FlagSearch>["featureSearch"];
type Item = Page["edges"][number]["node"];

/** The page's first queries, started while the viewer query runs (see `preloadPageAt`). */
export function prefetch(client: Client, url: URL) {
  void client.query(FlagSearch, variablesOf(url.searchParams)).toPromise();
  void client.query(FilterOptions, {}).toPromise();
}

/** The flag search of spec 4.2: filters, order and page live in the URL. */
export default function FlagsPage() {
  const [params, setParams] = useSearchParams();
  const variables = useMemo(() => variablesOf(params), [params]);
  const [result, refetch] = useQuery({ query: FlagSearch, variables });
  const page = result.data?.featureSearch;
  const reload = () => refetch({ requestPolicy: "network-only" });
  // Flags created, changed or toggled elsewhere show without a reload.
  useRefetchOnEvents({}, reload);
  // Typing in the search box replaces the history entry; other changes add one (back undoes them).
  const onChange = (next: URLSearchParams) => setParams(next, { replace: next.get("q") !== params.get("q") });

  return (
    <>
      <PageTitle>Flags</PageTitle>
      <CreateFlagForm onCreated={reload} />
      <FlagFilters params={params} onChange={onChange} />
      <Pending fetching={result.fetching && !page} error={result.error} />
      {page && (
        <>
          <p className="count" aria-live="polite">
            {page.totalCount === 1 ? "1 flag" : `${page.totalCount} flags`}
          </p>
          <FlagTable items={page.edges.map((e) => e.node)} onFavoriteChanged={reload} />
          <Pager page={page} params={params} onChange={setParams} />
        </>
      )}
    </>
  );
}

function FlagTable(props: { items: Item[]; onFavoriteChanged(): void }) {
  if (props.items.length === 0) return <p className="banner info">No flag matches these filters.</p>;
  return (
    <Table
      className="flag-list"
      columns={[
        <span key="favourite" className="visually-hidden">
          Favourite
        </span>,
        "Name",
        "Project",
        "Type",
        "Created",
        "Environments",
      ]}
    >
      {props.items.map((item) => (
        <tr key={`${item.project}/${item.name}`}>
          <td>
            <FavoriteButton item={item} onChanged={props.onFavoriteChanged} />
          </td>
          <td>
            <Link to={`/projects/${item.project}/flags/${item.name}`}>{item.name}</Link>
            {item.stale && <span className="badge off">stale</span>}
            {item.potentiallyStale && !item.stale && <span className="badge">potentially stale</span>}
            {item.archived && <span className="badge">archived</span>}
            {item.lifecycle && item.lifecycle.stage !== "archived" && (
              <span className="badge">{item.lifecycle.stage}</span>
            )}
            {item.description && <div className="description">{item.description}</div>}
            {item.tags.length > 0 && (
              <div>
                {item.tags.map((tag) => (
                  <span key={`${tag.type}:${tag.value}`} className="badge tag">
                    {tag.type}: {tag.value}
                  </span>
                ))}
              </div>
            )}
          </td>
          <td data-label="Project">{item.project}</td>
          <td data-label="Type">{item.type}</td>
          <td data-label="Created">
            <time dateTime={item.createdAt}>{item.createdAt.slice(0, 10)}</time>
            <span className="description"> by {item.createdBy.name}</span>
          </td>
          <td>
            <EnvironmentStates environments={item.environments} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A star toggling the flag in the signed-in user's favourites. */
function FavoriteButton(props: { item: Item; onChanged(): void }) {
  const { item } = props;
  const [favoriting, favorite] = useMutation(FavoriteFlag);
  const [unfavoriting, unfavorite] = useMutation(UnfavoriteFlag);
  const problem = problemOf(favoriting.error ?? unfavoriting.error);
  async function toggle() {
    const variables = { project: item.project, feature: item.name };
    const done = await (item.favorite ? unfavorite(variables) : favorite(variables));
    if (!done.error) props.onChanged();
  }
  return (
    <>
      <button
        type="button"
        className="star"
        aria-label={`Favourite ${item.name}`}
        aria-pressed={item.favorite}
        title={item.favorite ? "Remove from favourites" : "Add to favourites"}
        disabled={favoriting.fetching || unfavoriting.fetching}
        onClick={() => void toggle()}
      >
        {item.favorite ? "★" : "☆"}
      </button>
      <ProblemBanner problem={problem} />
    </>
  );
}

/** Cursor paging both ways: `after` the page's last flag, or `before` its first. */
function Pager(props: { page: Page; params: URLSearchParams; onChange(next: URLSearchParams): void }) {
  const { pageInfo } = props.page;
  const go = (key: "after" | "before", cursor: string | null | undefined) => {
    if (!cursor) return;
    const next = new URLSearchParams(props.params);
    next.delete("after");
    next.delete("before");
    next.set(key, cursor);
    props.onChange(next);
  };
  return (
    <nav className="pager" aria-label="Pages">
      {[
        {
          label: "Previous page",
          open: pageInfo.hasPreviousPage,
          key: "before" as const,
          cursor: pageInfo.startCursor,
        },
        { label: "Next page", open: pageInfo.hasNextPage, key: "after" as const, cursor: pageInfo.endCursor },
      ].map((link) => (
        <button
          key={link.key}
          type="button"
          className="secondary"
          disabled={!link.open}
          onClick={() => go(link.key, link.cursor)}
        >
          {link.label}
        </button>
      ))}
    </nav>
  );
}
