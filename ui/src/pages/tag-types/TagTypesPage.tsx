import { useState } from "react";
import { useMutation } from "urql";
import { Field, ProblemBanner, SubmitButtons } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { optionalText, submitWith, useCreateOrUpdate } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";

const TagTypeList = graphql(`
  query TagTypeList { tagTypes { name description color icon tagCount } }
`);

const CreateTagType = graphql(`
  mutation CreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }
`);

const UpdateTagType = graphql(`
  mutation UpdateTagType($name: String!, $input: UpdateTagTypeInput!) {
    updateTagType(name: $name, input: $input) { name description color icon }
  }
`);

const DeleteTagType = graphql(`
  mutation DeleteTagType($name: String!) { deleteTagType(name: $name) { name } }
`);

type TagType = ResultOf<typeof TagTypeList>["tagTypes"][number];

/** Tag types: create, edit description / colour / icon, delete (with their tags). */
export default function TagTypesPage() {
  const { result, data, reload, problem, confirmThen } = useListPage({ query: TagTypeList });
  const [editing, setEditing] = useState<string | null>(null);
  const [, remove] = useMutation(DeleteTagType);
  const tagTypes = data?.tagTypes;

  function deleteTagType(tagType: TagType) {
    const tags = tagType.tagCount === 1 ? "1 tag" : `${tagType.tagCount} tags`;
    return confirmThen(
      `Delete tag type ${tagType.name} and its ${tags}? Flags carrying them are untagged.`,
      () => remove({ name: tagType.name }),
    );
  }

  return (
    <>
      <PageTitle>Tag types</PageTitle>
      <TagTypeForm onSaved={reload} />
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !tagTypes} error={result.error} />
      {tagTypes && (
        <DataTable columns={["Name", "Description", "Tags", "Actions"]}>
          {tagTypes.map((tagType) => (
            <tr key={tagType.name}>
              <th scope="row">
                {tagType.color && (
                  <span className="swatch" style={{ background: tagType.color }} aria-hidden />
                )}
                {tagType.name}
                {tagType.icon && <span className="hint"> ({tagType.icon})</span>}
              </th>
              <td>
                {editing === tagType.name ? (
                  <TagTypeForm
                    tagType={tagType}
                    onSaved={() => setEditing(null)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  tagType.description
                )}
              </td>
              <td>{tagType.tagCount}</td>
              <td className="row-actions">
                <button type="button" className="secondary" onClick={() => setEditing(tagType.name)}>
                  Edit {tagType.name}
                </button>
                <button type="button" className="danger" onClick={() => void deleteTagType(tagType)}>
                  Delete {tagType.name}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

/** Creates a tag type, or edits `tagType` when given (its name cannot change). */
function TagTypeForm(props: { tagType?: TagType; onSaved(): void; onCancel?(): void }) {
  const existing = props.tagType;
  const { create, update, busy, problem } = useCreateOrUpdate(CreateTagType, UpdateTagType, existing);
  const submit = submitWith(
    (data) => {
      const text = (key: string) => optionalText(data, key);
      const fields = { description: text("description"), color: text("color"), icon: text("icon") };
      return existing
        ? update({ name: existing.name, input: fields })
        : create({ input: { name: String(data.get("name")), ...fields } });
    },
    (form) => {
      form.reset();
      props.onSaved();
    },
  );
  return (
    <form
      className="inline-form"
      onSubmit={submit}
      aria-label={existing ? `Edit tag type ${existing.name}` : "New tag type"}
    >
      {!existing && <Field label="Tag type name" name="name" required problem={problem} />}
      <Field
        label="Description"
        name="description"
        defaultValue={existing?.description ?? ""}
        problem={problem}
      />
      <Field
        label="Colour"
        name="color"
        placeholder="#1a2b3c"
        defaultValue={existing?.color ?? ""}
        problem={problem}
      />
      <Field label="Icon" name="icon" defaultValue={existing?.icon ?? ""} problem={problem} />
      <SubmitButtons busy={busy} onCancel={props.onCancel}>
        {existing ? "Save tag type" : "Create tag type"}
      </SubmitButtons>
      <ProblemBanner problem={problem} />
    </form>
  );
}
