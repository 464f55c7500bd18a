import { type FormEvent, useState } from "react";
import { Link, useParams } from "react-router";
import { useMutation, useQuery } from "urql";
import { EnvironmentStates } from "../../components/EnvironmentStates.tsx";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useRefetchOnEvents } from "../../lib/live.ts";
import { ChangeRequestSettings } from "./ChangeRequestSettings.tsx";
import { ProjectMembers } from "./ProjectMembers.tsx";

const Overview = graphql(`
  query ProjectOverview($id: String!) {
    projectOverview(id: $id) {
      id databaseId name description archivedAt health featureCount memberCount
      staleFeatureCount potentiallyStaleFeatureCount defaultStickiness
      environments { id name type }
      features { id name type stale potentiallyStale environments { name enabled } }
    }
    environments { id name type enabled }
  }
`);

const UpdateProject = graphql(`
  mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) { id name description }
  }
`);

const EnableEnvironment = graphql(`
  mutation EnableProjectEnvironment($project: String!, $environment: String!) {
    enableProjectEnvironment(project: $project, environment: $environment) { id environments { id name type } }
  }
`);

const DisableEnvironment = graphql(`
  mutation DisableProjectEnvironment($project: String!, $environment: String!) {
    disableProjectEnvironment(project: $project, environment: $environment) { id environments { id name type } }
  }
`);

type Project = ResultOf<typeof Overview>["projectOverview"];

/** One project: its details, flags, environments, change request settings and members. */
export default function ProjectPage() {
  const projectId = useParams().project ?? "";
  const [result, refetch] = useQuery({
    query: Overview,
    variables: { id: projectId },
    requestPolicy: "cache-and-network",
  });
  const reload = () => refetch({ requestPolicy: "network-only" });
  // Members, flags and settings changed elsewhere, and environments added to the instance, show at once.
  useRefetchOnEvents({ projects: [projectId] }, reload);
  useRefetchOnEvents(
    { types: ["environment-created", "environment-updated", "environment-deleted"] },
    reload,
  );
  const project = result.data?.projectOverview;
  return (
    <>
      <PageTitle>{project ? `Project ${project.name}` : "Project"}</PageTitle>
      <p>
        <Link to="/projects">All projects</Link> ·{" "}
        <Link to={`/projects/${encodeURIComponent(projectId)}/insights`}>Insights</Link>
      </p>
      <Pending fetching={result.fetching && !project} error={result.error} />
      {project && result.data && (
        <>
          <ProjectSummary project={project} />
          <EditProjectForm project={project} />
          <ProjectFlags project={project} />
          <ProjectEnvironments project={project} environments={result.data.environments} />
          {/* Enabling or disabling an environment changes the settings' rows: load them anew. */}
          <ChangeRequestSettings
            key={project.environments.map((e) => e.name).join()}
            project={project.databaseId}
          />
          <ProjectMembers project={project.databaseId} />
        </>
      )}
    </>
  );
}

function ProjectSummary(props: { project: Project }) {
  const { project } = props;
  return (
    <dl className="summary">
      <dt>Id</dt>
      <dd>
        <code>{project.databaseId}</code>
      </dd>
      <dt>Health</dt>
      <dd>{project.health}%</dd>
      <dt>Flags</dt>
      <dd>
        {project.featureCount} ({project.staleFeatureCount} stale, {project.potentiallyStaleFeatureCount}{" "}
        potentially stale)
      </dd>
      <dt>Members</dt>
      <dd>{project.memberCount}</dd>
      {project.archivedAt && (
        <>
          <dt>Archived</dt>
          <dd>{new Date(project.archivedAt).toLocaleString()}</dd>
        </>
      )}
    </dl>
  );
}

function EditProjectForm(props: { project: Project }) {
  const [result, update] = useMutation(UpdateProject);
  const [saved, setSaved] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const data = new FormData(event.currentTarget);
    const outcome = await update({
      id: props.project.databaseId,
      input: { name: String(data.get("name")), description: String(data.get("description") || "") || null },
    });
    setSaved(!outcome.error);
  }
  const problem = problemOf(result.error);
  return (
    <section aria-labelledby="project-details">
      <h2 id="project-details">Details</h2>
      <form className="inline-form" onSubmit={submit} aria-label="Edit project">
        <Field label="Name" name="name" defaultValue={props.project.name} required problem={problem} />
        <Field
          label="Description"
          name="description"
          defaultValue={props.project.description ?? ""}
          problem={problem}
        />
        <button type="submit" disabled={result.fetching}>
          Save project
        </button>
        {saved && <output className="hint">Saved.</output>}
        <ProblemBanner problem={problem} />
      </form>
    </section>
  );
}

function ProjectFlags(props: { project: Project }) {
  const { project } = props;
  return (
    <section aria-labelledby="project-flags">
      <h2 id="project-flags">Flags</h2>
      {project.features.length === 0 ? (
        <p>No active flags.</p>
      ) : (
        <DataTable columns={["Name", "Type", "Environments"]}>
          {project.features.map((feature) => (
            <tr key={feature.id}>
              <td>
                <Link
                  to={`/projects/${encodeURIComponent(project.databaseId)}/flags/${encodeURIComponent(feature.name)}`}
                >
                  {feature.name}
                </Link>
                {feature.stale && <span className="badge">stale</span>}
                {feature.potentiallyStale && <span className="badge">potentially stale</span>}
              </td>
              <td>{feature.type}</td>
              <td>
                <EnvironmentStates environments={feature.environments} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function ProjectEnvironments(props: {
  project: Project;
  environments: ResultOf<typeof Overview>["environments"];
}) {
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [enabling, enable] = useMutation(EnableEnvironment);
  const [disabling, disable] = useMutation(DisableEnvironment);
  // The box shows the wanted state at once; the answer (or its error) settles it.
  const [wanted, setWanted] = useState<Record<string, boolean>>({});
  const linked = new Set(props.project.environments.map((e) => e.name));
  async function toggle(environment: string, on: boolean) {
    const variables = { project: props.project.databaseId, environment };
    if (
      !on &&
      !window.confirm(
        `Disable ${environment} for this project? Its flags' state and strategies there are deleted.`,
      )
    )
      return;
    setWanted({ ...wanted, [environment]: on });
    const outcome = await (on ? enable(variables) : disable(variables));
    setProblem(problemOf(outcome.error));
    setWanted(({ [environment]: _, ...rest }) => rest);
  }
  return (
    <section aria-labelledby="project-environments">
      <h2 id="project-environments">Environments</h2>
      <ProblemBanner problem={problem} showFieldErrors />
      <ul className="plain-list">
        {props.environments.map((env) => (
          <li key={env.id}>
            <label className="check">
              <input
                type="checkbox"
                checked={wanted[env.name] ?? linked.has(env.name)}
                disabled={enabling.fetching || disabling.fetching}
                onChange={(e) => void toggle(env.name, e.target.checked)}
              />
              {env.name} <span className="hint">({env.type})</span>
              {!env.enabled && <span className="badge off">disabled instance-wide</span>}
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
