import { useState } from "react";
import { Link } from "react-router";
import { useMutation } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { optionalText, useCreateForm } from "../../lib/form-submit.ts";
import { graphql } from "../../lib/graphql.ts";
import { type ActionOutcome, useListPage } from "../../lib/list-page.ts";

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
  const { result, data, reload, problem, perform, confirmThen } = useListPage({
    query: ProjectList,
    variables: { archived },
  });
  const [, archive] = useMutation(ArchiveProject);
  const [, revive] = useMutation(ReviveProject);
  const [, favorite] = useMutation(FavoriteProject);
  const [, unfavorite] = useMutation(UnfavoriteProject);
  const projects = data?.projects;
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
        <DataTable columns={["Project", "Id", "Flags", "Members", "Health", "Actions"]}>
          {projects.length === 0 && (
            <WideRow columns={6}>{archived ? "No archived projects." : "No projects."}</WideRow>
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
                    void perform<ActionOutcome>(
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
                      void confirmThen(`Archive project ${project.name}? It must have no active flags.`, () =>
                        archive({ id: project.databaseId }),
                      )
                    }
                  >
                    Archive {project.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

function CreateProjectForm(props: { onCreated(): void }) {
  const { submit, busy, problem } = useCreateForm(
    CreateProject,
    (data) => ({
      input: {
        name: String(data.get("name")),
        id: optionalText(data, "id"),
        description: optionalText(data, "description"),
      },
    }),
    props.onCreated,
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New project">
      <Field label="Project name" name="name" required problem={problem} />
      <Field label="Project id (optional)" name="id" problem={problem} placeholder="derived from the name" />
      <Field label="Description" name="description" problem={problem} />
      <button type="submit" disabled={busy}>
        Create project
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
