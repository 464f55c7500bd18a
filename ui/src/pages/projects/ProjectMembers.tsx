import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { NamedOptions } from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";

const ProjectRoles = graphql(`
  query ProjectRoles { roles { id name type description } }
`);

/** The user list is for admins only: it is how the members of a project are found. */
const Members = graphql(`
  query ProjectMembersUsers {
    users { id databaseId name username email projectRoles { projectId role { id name } } }
  }
`);

const AddMember = graphql(`
  mutation AddProjectMember($project: String!, $userId: Int!, $roleId: Int!) {
    addProjectMember(project: $project, userId: $userId, roleId: $roleId)
  }
`);

const RemoveMember = graphql(`
  mutation RemoveProjectMember($project: String!, $userId: Int!, $roleId: Int!) {
    removeProjectMember(project: $project, userId: $userId, roleId: $roleId)
  }
`);

/**
 * Who holds which role in the project. Admins see the members and pick users by name; others
 * (who may manage members with UPDATE_PROJECT but cannot list users) give a user id.
 */
export function ProjectMembers(props: { project: string }) {
  const { isAdmin } = useSession();
  const [roles] = useQuery({ query: ProjectRoles, requestPolicy: "cache-and-network" });
  const [users, refetchUsers] = useQuery({
    query: Members,
    pause: !isAdmin,
    requestPolicy: "cache-and-network",
  });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [adding, add] = useMutation(AddMember);
  const [, remove] = useMutation(RemoveMember);
  const projectRoles = (roles.data?.roles ?? []).filter((r) => r.type === "project" || r.type === "custom");
  const reload = () => refetchUsers({ requestPolicy: "network-only" });

  const members = (users.data?.users ?? []).flatMap((user) =>
    user.projectRoles.filter((pr) => pr.projectId === props.project).map((pr) => ({ user, role: pr.role })),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const outcome = await add({
      project: props.project,
      userId: Number(data.get("userId")),
      roleId: Number(data.get("roleId")),
    });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  async function removeMember(userId: number, roleId: number, label: string) {
    if (!window.confirm(`Remove ${label} from the project?`)) return;
    const outcome = await remove({ project: props.project, userId, roleId });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  return (
    <section aria-labelledby="project-members">
      <h2 id="project-members">Members</h2>
      <form className="inline-form" onSubmit={submit} aria-label="Add member">
        {isAdmin ? (
          <SelectField label="User" name="userId" required problem={problem}>
            {(users.data?.users ?? []).map((user) => (
              <option key={user.id} value={user.databaseId}>
                {user.name || user.username || user.email}
              </option>
            ))}
          </SelectField>
        ) : (
          <Field label="User id" name="userId" type="number" min={1} required problem={problem} />
        )}
        <SelectField label="Role" name="roleId" required problem={problem}>
          <NamedOptions items={projectRoles} valueOf={(role) => role.id} />
        </SelectField>
        <button type="submit" disabled={adding.fetching}>
          Add member
        </button>
      </form>
      <ProblemBanner problem={problem} />
      {isAdmin ? (
        <>
          <Pending fetching={users.fetching && !users.data} error={users.error} />
          {users.data && members.length === 0 && <p>No members yet.</p>}
          {members.length > 0 && (
            <ul className="plain-list">
              {members.map(({ user, role }) => {
                const label = user.name || user.username || user.email || `user ${user.databaseId}`;
                return (
                  <li key={`${user.id}:${role.id}`}>
                    {label} — {role.name}{" "}
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void removeMember(user.databaseId, role.id, `${label} (${role.name})`)}
                    >
                      Remove {label} ({role.name})
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      ) : (
        <p className="hint">Only admins can list the members of a project.</p>
      )}
    </section>
  );
}
