import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { ProblemBanner, SelectField } from "../../components/form.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";

const ApproverRoles = graphql(`
  query ApproverRoles { roles { id name type permissions { name environment } } }
`);

const ApproverCandidates = graphql(`
  query ApproverCandidates { users { databaseId name username email } }
`);

const CreateApproverRole = graphql(`
  mutation CreateApproverRole($input: RoleInput!) { createRole(input: $input) { id name } }
`);

const AddApprover = graphql(`
  mutation AddApprover($project: String!, $userId: Int!, $roleId: Int!) {
    addProjectMember(project: $project, userId: $userId, roleId: $roleId)
  }
`);

/** The custom project role that approves and applies change requests in one environment. */
const approverRoleName = (environment: string) => `Change request approver (${environment})`;

/**
 * Who may approve change requests in an environment: admins, and members whose project role
 * holds APPROVE_CHANGE_REQUEST there (Unleash's predefined project roles do not). An admin can
 * make a user an approver here: the approver role is created once, then given in the project.
 */
export function ChangeRequestApprovers(props: { project: string; environment: string }) {
  const { isAdmin } = useSession();
  const [roles, refetchRoles] = useQuery({ query: ApproverRoles, requestPolicy: "cache-and-network" });
  const approving = (roles.data?.roles ?? []).filter((role) =>
    role.permissions.some(
      (p) => p.name === "APPROVE_CHANGE_REQUEST" && (!p.environment || p.environment === props.environment),
    ),
  );
  const names = approving.map((r) => r.name);
  return (
    <div className="approvers" role="note" aria-label={`Approvers in ${props.environment}`}>
      {names.length === 0 ? (
        <p className="banner warning">
          Only admins can approve change requests in {props.environment}: no role gives that permission.
        </p>
      ) : (
        <p className="hint">
          Admins can approve in {props.environment}, and members with the role {names.join(", ")}.
        </p>
      )}
      {isAdmin && (
        <MakeApprover
          {...props}
          existingRoleId={
            (roles.data?.roles ?? []).find((r) => r.name === approverRoleName(props.environment))?.id
          }
          onDone={() => refetchRoles({ requestPolicy: "network-only" })}
        />
      )}
    </div>
  );
}

function MakeApprover(props: {
  project: string;
  environment: string;
  existingRoleId: number | undefined;
  onDone(): void;
}) {
  const [users] = useQuery({ query: ApproverCandidates });
  const [, createRole] = useMutation(CreateApproverRole);
  const [adding, add] = useMutation(AddApprover);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const userId = Number(new FormData(event.currentTarget).get("userId"));
    let roleId = props.existingRoleId;
    if (roleId === undefined) {
      const created = await createRole({
        input: {
          name: approverRoleName(props.environment),
          description: `Approves and applies change requests in ${props.environment}.`,
          type: "custom",
          permissions: ["APPROVE_CHANGE_REQUEST", "APPLY_CHANGE_REQUEST"].map((name) => ({
            name,
            environment: props.environment,
          })),
        },
      });
      setProblem(problemOf(created.error));
      roleId = created.data?.createRole.id;
      if (roleId === undefined) return;
    }
    const outcome = await add({ project: props.project, userId, roleId });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) {
      const user = users.data?.users.find((u) => u.databaseId === userId);
      setDone(`${user?.name || user?.username || user?.email} can now approve in ${props.environment}.`);
      props.onDone();
    }
  }

  return (
    <form className="inline-form" aria-label={`Make an approver in ${props.environment}`} onSubmit={submit}>
      <SelectField label={`User to approve in ${props.environment}`} name="userId" required>
        {(users.data?.users ?? []).map((u) => (
          <option key={u.databaseId} value={u.databaseId}>
            {u.name || u.username || u.email}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="secondary" disabled={adding.fetching}>
        Make approver
      </button>
      {done && <p role="status">{done}</p>}
      <ProblemBanner problem={problem} showFieldErrors />
    </form>
  );
}
