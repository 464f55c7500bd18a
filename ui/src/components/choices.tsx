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

/** Named things as a select's options: `valueOf` gives an option's value, the name is shown. */
export function NamedOptions<Item extends { id: string | number; name: string }>(props: {
  items: readonly Item[] | undefined;
  valueOf(item: Item): string | number;
}) {
  return (
    <>
      {props.items?.map((item) => (
        <option key={item.id} value={props.valueOf(item)}>
          {item.name}
        </option>
      ))}
    </>
  );
}

/** Projects as a select's options: a project's id is the value, its name is shown. */
export function ProjectOptions(props: {
  projects: readonly { id: string; databaseId: string; name: string }[] | undefined;
}) {
  return <NamedOptions items={props.projects} valueOf={(project) => project.databaseId} />;
}

/** Environments as a select's options, by name. */
export function EnvironmentOptions(props: {
  environments: readonly { id: string; name: string }[] | undefined;
}) {
  return <NamedOptions items={props.environments} valueOf={(environment) => environment.name} />;
}
