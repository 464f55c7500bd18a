import { type ChangeEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useQuery } from "urql";
import {
  EnvironmentOptions,
  ProjectOptions,
  useProjectAndEnvironmentChoices,
} from "../../components/choices.tsx";
import { SelectField } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { graphql } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { CHANGE_REQUEST_STATES, ChangeRequestSummary, StateBadge, userLabel } from "./state.tsx";

const ChangeRequestList = graphql(
  `
  query ChangeRequestList(
    $project: String
    $environment: String
    $state: [String!]
    $open: Boolean
    $createdBy: Int
    $first: Int
    $after: String
  ) {
    changeRequests(
      project: $project
      environment: $environment
      state: $state
      open: $open
      createdBy: $createdBy
      first: $first
      after: $after
    ) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          ...ChangeRequestSummary
          approvals { createdAt }
          createdBy { id username }
          features { name changes { id } }
          segments { id }
        }
      }
    }
  }
`,
  [ChangeRequestSummary],
);

const PAGE_SIZE = 25;

/** Change requests, newest first; the filters live in the URL so a link keeps them. */
export default function ChangeRequestsPage() {
  const [params, setParams] = useSearchParams();
  const [cursors, setCursors] = useState<string[]>([]);
  const choices = useProjectAndEnvironmentChoices();
  const session = useSession().viewer.user?.databaseId ?? null;
  const status = params.get("status") ?? "open";
  const [result] = useQuery({
    query: ChangeRequestList,
    variables: {
      project: params.get("project") || null,
      environment: params.get("environment") || null,
      state: CHANGE_REQUEST_STATES.includes(status) ? [status] : null,
      open: status === "open" ? true : status === "closed" ? false : null,
      createdBy: params.get("mine") === "1" ? session : null,
      first: PAGE_SIZE,
      after: cursors.at(-1) ?? null,
    },
  });
  const page = result.data?.changeRequests;

  function setFilter(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
    setCursors([]);
  }

  /** A filter select's name, value and change handler: the value lives in the URL. */
  const filter = (name: string) => ({
    name,
    value: params.get(name) ?? "",
    onChange: (e: ChangeEvent<HTMLSelectElement>) => setFilter(name, e.target.value),
  });

  return (
    <>
      <PageTitle>Change requests</PageTitle>
      <search className="toolbar" aria-label="Filter change requests">
        <SelectField
          label="Status"
          name="status"
          value={status}
          onChange={(e) => setFilter("status", e.target.value)}
        >
          <option value="open">Open</option>
          <option value="closed">Closed</option>
          <option value="all">All</option>
          {CHANGE_REQUEST_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </SelectField>
        <SelectField label="Project" {...filter("project")}>
          <option value="">All projects</option>
          <ProjectOptions projects={choices.data?.projects} />
        </SelectField>
        <SelectField label="Environment" {...filter("environment")}>
          <option value="">All environments</option>
          <EnvironmentOptions environments={choices.data?.environments} />
        </SelectField>
        {session !== null && (
          <div className="field checkbox">
            <label>
              <input
                type="checkbox"
                checked={params.get("mine") === "1"}
                onChange={(e) => setFilter("mine", e.target.checked ? "1" : "")}
              />{" "}
              Only mine
            </label>
          </div>
        )}
      </search>
      <Pending fetching={result.fetching && !page} error={result.error} />
      {page && (
        <>
          <p className="count">{page.totalCount} change requests</p>
          {page.edges.length > 0 && (
            <Table
              columns={[
                "Title",
                "State",
                "Project / environment",
                "Changes",
                "Approvals",
                "Author",
                "Created",
              ]}
            >
              {page.edges.map(({ node }) => (
                <tr key={node.id}>
                  <td>
                    <Link to={`/change-requests/${node.databaseId}`}>
                      #{node.databaseId} {node.title}
                    </Link>
                  </td>
                  <td>
                    <StateBadge state={node.state} />
                  </td>
                  <td>
                    {node.project} / {node.environment}
                  </td>
                  <td>
                    {node.features.reduce((sum, f) => sum + f.changes.length, 0) + node.segments.length}
                    {node.features.length > 0 && (
                      <span className="muted"> ({node.features.map((f) => f.name).join(", ")})</span>
                    )}
                  </td>
                  <td>
                    {node.approvals.length} / {node.minApprovals}
                  </td>
                  <td>{userLabel(node.createdBy)}</td>
                  <td>
                    <time dateTime={node.createdAt}>{new Date(node.createdAt).toLocaleString()}</time>
                  </td>
                </tr>
              ))}
            </Table>
          )}
          <div className="pager">
            <button
              type="button"
              disabled={cursors.length === 0}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={!page.pageInfo.hasNextPage}
              onClick={() => page.pageInfo.endCursor && setCursors([...cursors, page.pageInfo.endCursor])}
            >
              Next page
            </button>
          </div>
        </>
      )}
    </>
  );
}
