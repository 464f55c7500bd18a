import { useState } from "react";
import { useMutation } from "urql";
import { BUILT_IN_CONTEXT_FIELDS } from "../../components/ConstraintsEditor.tsx";
import { CreateOrEditForm, Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { optionalText, submitWith, useCreateOrUpdate } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";
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

/** What each built-in field holds, as the SDKs fill it in. */
const BUILT_IN_MEANING: Record<string, string> = {
  userId: "The signed-in user's id, as the application sets it.",
  sessionId: "The session's id, as the application sets it.",
  remoteAddress: "The client's IP address.",
  appName: "The application's name from the SDK's configuration.",
  environment: "The environment the SDK names in its configuration.",
  currentTime: "The time of the evaluation (for DATE_AFTER and DATE_BEFORE).",
};
type LegalValue = { value: string; description: string };

/** Context fields: create, edit legal values / stickiness / order, delete. */
export default function ContextFieldsPage() {
  const { result, data, reload, problem, confirmThen } = useListPage({ query: ContextFieldList });
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [, remove] = useMutation(DeleteContextField);
  const fields = data?.contextFields;
  const deleteField = (name: string) => confirmThen(`Delete context field ${name}?`, () => remove({ name }));

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
        <DataTable
          caption={<caption>Defined context fields</caption>}
          columns={["Name", "Description", "Legal values", "Stickiness", "Order", "Actions"]}
        >
          {fields.length === 0 && (
            <WideRow columns={6}>
              No context fields defined yet. The built-in fields below work in constraints as they are; define
              a field to use another context property, give it legal values, or use it for stickiness.
            </WideRow>
          )}
          {fields.map((field) =>
            editing === field.name ? (
              <WideRow key={field.name} columns={6}>
                <ContextFieldForm field={field} onDone={() => setEditing(null)} />
              </WideRow>
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
        </DataTable>
      )}
      {fields && <BuiltInFields defined={fields.map((f) => f.name)} />}
    </>
  );
}

/** The fields every SDK sends, usable in constraints without a definition (unless one redefines them). */
function BuiltInFields(props: { defined: string[] }) {
  const builtIn = BUILT_IN_CONTEXT_FIELDS.filter((name) => !props.defined.includes(name));
  if (builtIn.length === 0) return null;
  return (
    <DataTable caption={<caption>Built-in context fields</caption>} columns={["Name", "What it holds"]}>
      {builtIn.map((name) => (
        <tr key={name}>
          <th scope="row">{name}</th>
          <td>{BUILT_IN_MEANING[name] ?? ""}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Creates a context field, or edits `field` (its name cannot change). */
function ContextFieldForm(props: { field?: ContextField; onDone(saved: boolean): void }) {
  const existing = props.field;
  const [legalValues, setLegalValues] = useState<LegalValue[]>(
    existing?.legalValues.map((v) => ({ value: v.value, description: v.description ?? "" })) ?? [],
  );
  const { create, update, busy, problem } = useCreateOrUpdate(
    CreateContextField,
    UpdateContextField,
    existing,
  );
  const submit = submitWith(
    (data) => {
      const sortOrder = optionalText(data, "sortOrder");
      const fields = {
        description: optionalText(data, "description"),
        stickiness: data.get("stickiness") === "on",
        sortOrder: sortOrder ? Number(sortOrder) : null,
        legalValues: legalValues.map((v) => ({ value: v.value, description: v.description || null })),
      };
      return existing
        ? update({ name: existing.name, input: fields })
        : create({ input: { name: String(data.get("name")), ...fields } });
    },
    () => props.onDone(true),
  );
  return (
    <CreateOrEditForm
      noun="context field"
      editing={existing?.name}
      className="stacked-form"
      onSubmit={submit}
      busy={busy}
      problem={problem}
      onCancel={() => props.onDone(false)}
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
    </CreateOrEditForm>
  );
}
