import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { type CombinedError, useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";

const ProjectList = graphql(`
  query ProjectList($archived: Boolean) {
    projects(archived: $archived) {
      id databaseId name description featureCount memberCount health favorite archivedAt
    }
  }
`);

const CreateProject = graphql(`
  mutation CreateProject($input: CreateProjectInput!) {
    createProject(input: $input) { id databaseId name }
  }
`);

const ArchiveProject = graphql(`
  mutation ArchiveProject($id: String!) { archiveProject(id: $id) { id archivedAt } }
`);

const ReviveProject = graphql(`
  mutation ReviveProject($id: String!) { reviveProject(id: $id) { id archivedAt } }
`);

const FavoriteProject = graphql(`
  mutation FavoriteProject($project: String!) { favoriteProject(project: $project) { id favorite } }
`);

const UnfavoriteProject = graphql(`
  mutation UnfavoriteProject($project: String!) { unfavoriteProject(project: $project) { id favorite } }
`);

/** Projects: the active ones (or the archived ones), create, archive / revive, favourite. */
export default function ProjectsPage() {
  const [archived, setArchived] = useState(false);
  // Archiving or reviving moves a project between the two lists: show the other one fresh.
  const [result, refetch] = useQuery({
    query: ProjectList,
    variables: { archived },
    requestPolicy: "cache-and-network",
  });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [, archive] = useMutation(ArchiveProject);
  const [, revive] = useMutation(ReviveProject);
  const [, favorite] = useMutation(FavoriteProject);
  const [, unfavorite] = useMutation(UnfavoriteProject);
  const reload = () => refetch({ requestPolicy: "network-only" });

  async function perform(outcome: Promise<{ error?: CombinedError | undefined }>, thenReload = true) {
    const { error } = await outcome;
    setProblem(problemOf(error));
    if (!error && thenReload) reload();
  }

  const projects = result.data?.projects;
  return (
    <>
      <PageTitle>Projects</PageTitle>
      {!archived && <CreateProjectForm onCreated={reload} />}
      <div className="toolbar">
        <label className="check">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} />
          Show archived projects
        </label>
      </div>
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !projects} error={result.error} />
      {projects && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">Id</th>
                <th scope="col">Flags</th>
                <th scope="col">Members</th>
                <th scope="col">Health</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {projects.length === 0 && (
                <tr>
                  <td colSpan={6}>{archived ? "No archived projects." : "No projects."}</td>
                </tr>
              )}
              {projects.map((project) => (
                <tr key={project.id}>
                  <td>
                    <Link to={`/projects/${encodeURIComponent(project.databaseId)}`}>{project.name}</Link>
                    {project.description && <p className="hint">{project.description}</p>}
                  </td>
                  <td>
                    <code>{project.databaseId}</code>
                  </td>
                  <td>{project.featureCount}</td>
                  <td>{project.memberCount}</td>
                  <td>{project.health}%</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-pressed={project.favorite}
                      aria-label={`Favourite ${project.name}`}
                      onClick={() =>
                        void perform(
                          (project.favorite ? unfavorite : favorite)({ project: project.databaseId }),
                          false,
                        )
                      }
                    >
                      {project.favorite ? "★" : "☆"}
                    </button>
                    {project.archivedAt ? (
                      <button type="button" onClick={() => void perform(revive({ id: project.databaseId }))}>
                        Revive {project.name}
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        onClick={() =>
                          window.confirm(`Archive project ${project.name}? It must have no active flags.`) &&
                          void perform(archive({ id: project.databaseId }))
                        }
                      >
                        Archive {project.name}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function CreateProjectForm(props: { onCreated(): void }) {
  const [result, create] = useMutation(CreateProject);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const created = await create({
      input: {
        name: String(data.get("name")),
        id: String(data.get("id") || "") || null,
        description: String(data.get("description") || "") || null,
      },
    });
    if (!created.error) {
      form.reset();
      props.onCreated();
    }
  }
  const problem = problemOf(result.error);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New project">
      <Field label="Project name" name="name" required problem={problem} />
      <Field label="Project id (optional)" name="id" problem={problem} placeholder="derived from the name" />
      <Field label="Description" name="description" problem={problem} />
      <button type="submit" disabled={result.fetching}>
        Create project
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
