import { type FormEvent, useId } from "react";
import { useMutation } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import { optionalText, useCreateForm } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";

const EnvironmentList = graphql(`
  query EnvironmentList {
    environments { id name type sortOrder enabled protected projectCount enabledToggleCount }
  }
`);

const CreateEnvironment = graphql(`
  mutation CreateEnvironment($input: CreateEnvironmentInput!) {
    createEnvironment(input: $input) { id name }
  }
`);

const UpdateEnvironment = graphql(`
  mutation UpdateEnvironment($name: String!, $input: UpdateEnvironmentInput!) {
    updateEnvironment(name: $name, input: $input) { id type sortOrder }
  }
`);

type Environment = ResultOf<typeof EnvironmentList>["environments"][number];

/** The usual environment types; the API takes any. */
const TYPES = ["development", "test", "preproduction", "production"];

/**
 * Environments: create, and change type and sort order. The API has no way to delete one or
 * to switch `enabled` after creation, so both are shown read-only.
 */
export default function EnvironmentsPage() {
  const { result, data, reload } = useListPage({ query: EnvironmentList });
  const environments = data?.environments;
  const typesId = useId();
  return (
    <>
      <PageTitle>Environments</PageTitle>
      <datalist id={typesId}>
        {TYPES.map((type) => (
          <option key={type} value={type} />
        ))}
      </datalist>
      <CreateEnvironmentForm typesId={typesId} onCreated={reload} />
      <Pending fetching={result.fetching && !environments} error={result.error} />
      {environments && (
        <DataTable columns={["Name", "Status", "Projects", "Flags on", "Type and order"]}>
          {environments.map((env) => (
            <tr key={env.id}>
              <th scope="row">{env.name}</th>
              <td>
                <span className={env.enabled ? "badge on" : "badge off"}>
                  {env.enabled ? "enabled" : "disabled"}
                </span>
                {env.protected && <span className="badge">protected</span>}
              </td>
              <td>{env.projectCount}</td>
              <td>{env.enabledToggleCount}</td>
              <td>
                <EditEnvironmentForm environment={env} typesId={typesId} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

function CreateEnvironmentForm(props: { typesId: string; onCreated(): void }) {
  const { submit, busy, problem } = useCreateForm(
    CreateEnvironment,
    (data) => {
      const sortOrder = optionalText(data, "sortOrder");
      return {
        input: {
          name: String(data.get("name")),
          type: String(data.get("type")),
          sortOrder: sortOrder ? Number(sortOrder) : null,
          enabled: data.get("enabled") === "on",
        },
      };
    },
    props.onCreated,
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New environment">
      <Field label="Environment name" name="name" required problem={problem} />
      <Field
        label="Type"
        name="type"
        list={props.typesId}
        required
        defaultValue="development"
        problem={problem}
      />
      <Field label="Sort order" name="sortOrder" type="number" problem={problem} />
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked />
        Enabled for new projects
      </label>
      <button type="submit" disabled={busy}>
        Create environment
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}

function EditEnvironmentForm(props: { environment: Environment; typesId: string }) {
  const { environment } = props;
  const [result, update] = useMutation(UpdateEnvironment);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await update({
      name: environment.name,
      input: { type: String(data.get("type")), sortOrder: Number(data.get("sortOrder")) },
    });
  }
  const problem = problemOf(result.error);
  return (
    <form
      className="row-form"
      onSubmit={submit}
      aria-label={`Edit ${environment.name}`}
      key={`${environment.type}:${environment.sortOrder}`}
    >
      <Field
        label={`Type of ${environment.name}`}
        name="type"
        list={props.typesId}
        defaultValue={environment.type}
        required
        problem={problem}
      />
      <Field
        label={`Sort order of ${environment.name}`}
        name="sortOrder"
        type="number"
        defaultValue={environment.sortOrder}
        required
        problem={problem}
      />
      <button type="submit" disabled={result.fetching}>
        Save {environment.name}
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
