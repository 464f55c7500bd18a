import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { LegalValuesEditor } from "./LegalValuesEditor.tsx";

const ContextFieldList = graphql(`
  query ContextFieldList {
    contextFields { name description stickiness sortOrder legalValues { value description } }
  }
`);

const CreateContextField = graphql(`
  mutation CreateContextField($input: CreateContextFieldInput!) {
    createContextField(input: $input) { name }
  }
`);

const UpdateContextField = graphql(`
  mutation UpdateContextField($name: String!, $input: UpdateContextFieldInput!) {
    updateContextField(name: $name, input: $input) {
      name description stickiness sortOrder legalValues { value description }
    }
  }
`);

const DeleteContextField = graphql(`
  mutation DeleteContextField($name: String!) { deleteContextField(name: $name) { name } }
`);

type ContextField = ResultOf<typeof ContextFieldList>["contextFields"][number];
type LegalValue = { value: string; description: string };

/** Context fields: create, edit legal values / stickiness / order, delete. */
export default function ContextFieldsPage() {
  const [result, refetch] = useQuery({ query: ContextFieldList, requestPolicy: "cache-and-network" });
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [, remove] = useMutation(DeleteContextField);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const fields = result.data?.contextFields;

  async function deleteField(name: string) {
    if (!window.confirm(`Delete context field ${name}?`)) return;
    const outcome = await remove({ name });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  return (
    <>
      <PageTitle
        actions={
          !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New context field
            </button>
          )
        }
      >
        Context fields
      </PageTitle>
      {creating && (
        <ContextFieldForm
          onDone={(saved) => {
            setCreating(false);
            if (saved) reload();
          }}
        />
      )}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !fields} error={result.error} />
      {fields && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Legal values</th>
                <th scope="col">Stickiness</th>
                <th scope="col">Order</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) =>
                editing === field.name ? (
                  <tr key={field.name}>
                    <td colSpan={6}>
                      <ContextFieldForm field={field} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={field.name}>
                    <th scope="row">{field.name}</th>
                    <td>{field.description}</td>
                    <td>
                      {field.legalValues.length === 0
                        ? "any value"
                        : field.legalValues.map((v) => (
                            <span key={v.value} className="badge" title={v.description ?? undefined}>
                              {v.value}
                            </span>
                          ))}
                    </td>
                    <td>{field.stickiness ? "yes" : "no"}</td>
                    <td>{field.sortOrder}</td>
                    <td className="row-actions">
                      <button type="button" className="secondary" onClick={() => setEditing(field.name)}>
                        Edit {field.name}
                      </button>
                      <button type="button" className="danger" onClick={() => void deleteField(field.name)}>
                        Delete {field.name}
                      </button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** Creates a context field, or edits `field` (its name cannot change). */
function ContextFieldForm(props: { field?: ContextField; onDone(saved: boolean): void }) {
  const existing = props.field;
  const [legalValues, setLegalValues] = useState<LegalValue[]>(
    existing?.legalValues.map((v) => ({ value: v.value, description: v.description ?? "" })) ?? [],
  );
  const [created, create] = useMutation(CreateContextField);
  const [updated, update] = useMutation(UpdateContextField);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const sortOrder = String(data.get("sortOrder") || "");
    const fields = {
      description: String(data.get("description") || "") || null,
      stickiness: data.get("stickiness") === "on",
      sortOrder: sortOrder ? Number(sortOrder) : null,
      legalValues: legalValues.map((v) => ({ value: v.value, description: v.description || null })),
    };
    const outcome = existing
      ? await update({ name: existing.name, input: fields })
      : await create({ input: { name: String(data.get("name")), ...fields } });
    if (!outcome.error) props.onDone(true);
  }
  const problem = problemOf(existing ? updated.error : created.error);
  return (
    <form
      className="stacked-form"
      onSubmit={submit}
      aria-label={existing ? `Edit context field ${existing.name}` : "New context field"}
    >
      {existing ? (
        <h2>Edit {existing.name}</h2>
      ) : (
        <Field label="Field name" name="name" required problem={problem} />
      )}
      <Field
        label="Description"
        name="description"
        defaultValue={existing?.description ?? ""}
        problem={problem}
      />
      <Field
        label="Sort order"
        name="sortOrder"
        type="number"
        defaultValue={existing?.sortOrder ?? ""}
        problem={problem}
      />
      <label className="check">
        <input type="checkbox" name="stickiness" defaultChecked={existing?.stickiness ?? false} />
        Usable as stickiness
      </label>
      <LegalValuesEditor value={legalValues} onChange={setLegalValues} message={problem?.fields.value} />
      <div className="form-actions">
        <button type="submit" disabled={created.fetching || updated.fetching}>
          {existing ? "Save context field" : "Create context field"}
        </button>
        <button type="button" className="secondary" onClick={() => props.onDone(false)}>
          Cancel
        </button>
      </div>
      <ProblemBanner problem={problem} />
    </form>
  );
}
