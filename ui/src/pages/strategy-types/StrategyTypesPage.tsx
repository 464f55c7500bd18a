import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import { optionalText } from "../../lib/form-submit.ts";
import { graphql } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";

const StrategyTypes = graphql(`
  query StrategyTypes {
    strategyDefinitions {
      name title description deprecated editable
      parameters { name type description required }
    }
  }
`);

const CreateStrategyType = graphql(`
  mutation CreateStrategyType($input: CreateStrategyDefinitionInput!) {
    createStrategyDefinition(input: $input) { name }
  }
`);

const SetDeprecated = graphql(`
  mutation SetStrategyTypeDeprecated($name: String!, $deprecated: Boolean!) {
    setStrategyDefinitionDeprecated(name: $name, deprecated: $deprecated) { name deprecated }
  }
`);

const DeleteStrategyType = graphql(`
  mutation DeleteStrategyType($name: String!) { deleteStrategyDefinition(name: $name) }
`);

const PARAMETER_TYPES = ["string", "percentage", "list", "number", "boolean"];

type Parameter = { name: string; type: string; description: string; required: boolean };

/** Strategy types: the built-in ones, and custom types (create, deprecate, reactivate, delete). */
export default function StrategyTypesPage() {
  const { result, data, reload, problem, perform, confirmThen } = useListPage({ query: StrategyTypes });
  const [, setDeprecated] = useMutation(SetDeprecated);
  const [, remove] = useMutation(DeleteStrategyType);
  const types = data?.strategyDefinitions;
  return (
    <>
      <PageTitle>Strategy types</PageTitle>
      <NewStrategyTypeForm onCreated={reload} />
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !types} error={result.error} />
      {types && (
        <DataTable columns={["Name", "Description", "Parameters", "Kind", "Actions"]}>
          {types.map((t) => (
            <tr key={t.name}>
              <th scope="row">
                {t.title || t.name}
                {t.title && <span className="muted"> ({t.name})</span>}
                {t.deprecated && <span className="badge off">deprecated</span>}
              </th>
              <td>{t.description}</td>
              <td>
                {t.parameters.map((p) => (
                  <span key={p.name} className="badge" title={p.description}>
                    {p.name}: {p.type}
                    {p.required ? " (required)" : ""}
                  </span>
                ))}
              </td>
              <td>{t.editable ? "custom" : "built-in"}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => void perform(setDeprecated({ name: t.name, deprecated: !t.deprecated }))}
                >
                  {t.deprecated ? `Reactivate ${t.name}` : `Deprecate ${t.name}`}
                </button>
                {t.editable && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() =>
                      void confirmThen(`Delete strategy type ${t.name}?`, () => remove({ name: t.name }))
                    }
                  >
                    Delete {t.name}
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

function NewStrategyTypeForm(props: { onCreated(): void }) {
  const [created, create] = useMutation(CreateStrategyType);
  const [parameters, setParameters] = useState<Parameter[]>([]);
  const problem = problemOf(created.error);
  const replace = (index: number, p: Parameter) =>
    setParameters(parameters.map((old, i) => (i === index ? p : old)));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const outcome = await create({
      input: {
        name: String(data.get("name")),
        title: optionalText(data, "title"),
        description: optionalText(data, "description"),
        parameters: parameters.map((p) => ({ ...p, description: p.description || null })),
      },
    });
    if (!outcome.error) {
      form.reset();
      setParameters([]);
      props.onCreated();
    }
  }

  return (
    <form className="stacked-form card" aria-label="New strategy type" onSubmit={submit}>
      <Field label="Strategy type name" name="name" required problem={problem} />
      <Field label="Title" name="title" problem={problem} />
      <Field label="Description" name="description" problem={problem} />
      {parameters.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parameters are edited in place; their position is their identity
        <fieldset key={i} className="inline-form" aria-label={`Parameter ${i + 1}`}>
          <Field
            label={`Name of parameter ${i + 1}`}
            name="parameterName"
            value={p.name}
            required
            onChange={(e) => replace(i, { ...p, name: e.target.value })}
          />
          <SelectField
            label={`Type of parameter ${i + 1}`}
            name="parameterType"
            value={p.type}
            onChange={(e) => replace(i, { ...p, type: e.target.value })}
          >
            {PARAMETER_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </SelectField>
          <Field
            label={`Description of parameter ${i + 1}`}
            name="parameterDescription"
            value={p.description}
            onChange={(e) => replace(i, { ...p, description: e.target.value })}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={p.required}
              onChange={(e) => replace(i, { ...p, required: e.target.checked })}
            />
            Required
          </label>
          <button
            type="button"
            className="danger"
            onClick={() => setParameters(parameters.filter((_, j) => j !== i))}
          >
            Remove parameter {i + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          setParameters([...parameters, { name: "", type: "string", description: "", required: false }])
        }
      >
        Add parameter
      </button>
      <button type="submit" disabled={created.fetching}>
        Create strategy type
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
