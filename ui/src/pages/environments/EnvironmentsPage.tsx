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

const SetEnabled = graphql(`
  mutation SetEnvironmentEnabled($name: String!, $enabled: Boolean!) {
    setEnvironmentEnabled(name: $name, enabled: $enabled) { id enabled }
  }
`);

const DeleteEnvironment = graphql(`
  mutation DeleteEnvironment($name: String!) { deleteEnvironment(name: $name) }
`);

const CloneEnvironment = graphql(`
  mutation CloneEnvironment($name: String!, $input: CloneEnvironmentInput!) {
    cloneEnvironment(name: $name, input: $input) { id name }
  }
`);

type Environment = ResultOf<typeof EnvironmentList>["environments"][number];

/** The usual environment types; the API takes any. */
const TYPES = ["development", "test", "preproduction", "production"];

/**
 * Environments: create, change type and sort order, deprecate (Unleash's word for disabled:
 * hidden from new projects) and undeprecate, clone with every flag's configuration, delete.
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
        <DataTable columns={["Name", "Status", "Projects", "Flags on", "Type and order", "Actions"]}>
          {environments.map((env) => (
            <tr key={env.id}>
              <th scope="row">{env.name}</th>
              <td>
                <span className={env.enabled ? "badge on" : "badge off"}>
                  {env.enabled ? "enabled" : "deprecated"}
                </span>
                {env.protected && <span className="badge">protected</span>}
              </td>
              <td>{env.projectCount}</td>
              <td>{env.enabledToggleCount}</td>
              <td>
                <EditEnvironmentForm environment={env} typesId={typesId} />
              </td>
              <td>
                <EnvironmentActions environment={env} typesId={typesId} onChanged={reload} />
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

/** Deprecate or undeprecate, clone, delete: each says what went wrong in place. */
function EnvironmentActions(props: { environment: Environment; typesId: string; onChanged(): void }) {
  const { environment } = props;
  const [toggle, setEnabled] = useMutation(SetEnabled);
  const [deletion, remove] = useMutation(DeleteEnvironment);
  const [cloning, clone] = useMutation(CloneEnvironment);
  async function deleteIt() {
    const question = `Delete the environment ${environment.name}? Every flag's configuration in it is deleted too.`;
    if (!window.confirm(question)) return;
    const outcome = await remove({ name: environment.name });
    if (!outcome.error) props.onChanged();
  }
  async function cloneIt(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const outcome = await clone({
      name: environment.name,
      input: { name: String(data.get("name")), type: String(data.get("type")) },
    });
    if (!outcome.error) props.onChanged();
  }
  const problem = problemOf(toggle.error ?? deletion.error ?? cloning.error);
  return (
    <div className="row-actions">
      <button
        type="button"
        disabled={toggle.fetching}
        onClick={() => void setEnabled({ name: environment.name, enabled: !environment.enabled })}
      >
        {environment.enabled ? `Deprecate ${environment.name}` : `Undeprecate ${environment.name}`}
      </button>
      <button
        type="button"
        className="danger"
        disabled={deletion.fetching || environment.protected}
        title={environment.protected ? "A protected environment cannot be deleted." : undefined}
        onClick={() => void deleteIt()}
      >
        Delete {environment.name}
      </button>
      <form className="row-form" onSubmit={cloneIt} aria-label={`Clone ${environment.name}`}>
        <Field label={`Name of the copy of ${environment.name}`} name="name" required problem={problem} />
        <Field
          label={`Type of the copy of ${environment.name}`}
          name="type"
          list={props.typesId}
          defaultValue={environment.type}
          required
          problem={problem}
        />
        <button type="submit" disabled={cloning.fetching}>
          Clone {environment.name}
        </button>
      </form>
      <ProblemBanner problem={problem} />
    </div>
  );
}
