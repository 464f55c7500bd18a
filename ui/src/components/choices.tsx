import { useQuery } from "urql";
import { graphql } from "../lib/graphql.ts";
import { useSession } from "../lib/session.tsx";

const ProjectAndEnvironmentChoices = graphql(`
  query ProjectAndEnvironmentChoices {
    projects { id databaseId name }
    environments { id name }
  }
`);

/** The projects and environments a filter or a form offers to choose from. */
export function useProjectAndEnvironmentChoices() {
  const [result] = useQuery({ query: ProjectAndEnvironmentChoices });
  return result;
}

const UserChoices = graphql(`
  query UserChoices {
    users { id databaseId name username email }
  }
`);

/** The users a "created by" filter offers; only admins may list users, so for others it asks nothing. */
export function useUserChoices() {
  const { isAdmin } = useSession();
  const [result] = useQuery({ query: UserChoices, pause: !isAdmin });
  return result;
}

/** A user as a choice names them: name, else username, else email. */
export function userChoiceLabel(user: {
  name: string | null;
  username: string | null;
  email: string | null;
}): string {
  return user.name ?? user.username ?? user.email ?? "";
}

/** Projects as a select's options: a project's id is the value, its name is shown. */
export function ProjectOptions(props: {
  projects: readonly { id: string; databaseId: string; name: string }[] | undefined;
}) {
  return (
    <>
      {props.projects?.map((project) => (
        <option key={project.id} value={project.databaseId}>
          {project.name}
        </option>
      ))}
    </>
  );
}

/** Environments as a select's options, by name. */
export function EnvironmentOptions(props: {
  environments: readonly { id: string; name: string }[] | undefined;
}) {
  return (
    <>
      {props.environments?.map((environment) => (
        <option key={environment.id} value={environment.name}>
          {environment.name}
        </option>
      ))}
    </>
  );
}
