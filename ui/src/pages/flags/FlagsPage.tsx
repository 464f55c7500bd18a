import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";

const FlagSearch = graphql(`
  query FlagSearch($filter: FeatureSearchFilter, $first: Int, $after: String) {
    featureSearch(filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          name
          project
          type
          description
          stale
          favorite
          environments { name enabled }
        }
      }
    }
  }
`);

const CreateFlag = graphql(`
  mutation CreateFlag($project: String!, $input: CreateFeatureInput!) {
    createFeature(project: $project, input: $input) { id name project }
  }
`);

const PAGE_SIZE = 50;

/** The flag search of spec 4.2. */
export default function FlagsPage() {
  const [query, setQuery] = useState("");
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const [result, refetch] = useQuery({
    query: FlagSearch,
    variables: { filter: query ? { query } : null, first: PAGE_SIZE, after: after ?? null },
  });
  const page = result.data?.featureSearch;

  return (
    <>
      <PageTitle>Flags</PageTitle>
      <CreateFlagForm onCreated={() => refetch({ requestPolicy: "network-only" })} />
      <search className="toolbar">
        <Field
          label="Search"
          name="query"
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCursors([]);
          }}
        />
      </search>
      <Pending fetching={result.fetching && !page} error={result.error} />
      {page && (
        <>
          <p className="count">{page.totalCount} flags</p>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Project</th>
                <th scope="col">Type</th>
                <th scope="col">Environments</th>
              </tr>
            </thead>
            <tbody>
              {page.edges.map(({ node }) => (
                <tr key={node.name}>
                  <td>
                    <Link to={`/projects/${node.project}/flags/${node.name}`}>{node.name}</Link>
                    {node.stale && <span className="badge">stale</span>}
                  </td>
                  <td>{node.project}</td>
                  <td>{node.type}</td>
                  <td>
                    {node.environments.map((env) => (
                      <span key={env.name} className={env.enabled ? "badge on" : "badge off"}>
                        {env.name}: {env.enabled ? "on" : "off"}
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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

function CreateFlagForm(props: { onCreated(): void }) {
  const [result, create] = useMutation(CreateFlag);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const created = await create({
      project: String(data.get("project") || "default"),
      input: { name: String(data.get("name")), description: String(data.get("description") || "") || null },
    });
    if (!created.error) {
      form.reset();
      props.onCreated();
    }
  }
  const problem = problemOf(result.error);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New flag">
      <Field label="New flag name" name="name" required problem={problem} />
      <Field label="Description" name="description" problem={problem} />
      <Field label="Project" name="project" defaultValue="default" problem={problem} />
      <button type="submit" disabled={result.fetching}>
        Create flag
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
