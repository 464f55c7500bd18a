import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

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
  const [result, refetch] = useQuery({ query: TagTypeList, requestPolicy: "cache-and-network" });
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [, remove] = useMutation(DeleteTagType);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const tagTypes = result.data?.tagTypes;

  async function deleteTagType(tagType: TagType) {
    const tags = tagType.tagCount === 1 ? "1 tag" : `${tagType.tagCount} tags`;
    if (!window.confirm(`Delete tag type ${tagType.name} and its ${tags}? Flags carrying them are untagged.`))
      return;
    const outcome = await remove({ name: tagType.name });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  return (
    <>
      <PageTitle>Tag types</PageTitle>
      <TagTypeForm onSaved={reload} />
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !tagTypes} error={result.error} />
      {tagTypes && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Tags</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** Creates a tag type, or edits `tagType` when given (its name cannot change). */
function TagTypeForm(props: { tagType?: TagType; onSaved(): void; onCancel?(): void }) {
  const [created, create] = useMutation(CreateTagType);
  const [updated, update] = useMutation(UpdateTagType);
  const existing = props.tagType;
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) || "") || null;
    const fields = { description: text("description"), color: text("color"), icon: text("icon") };
    const outcome = existing
      ? await update({ name: existing.name, input: fields })
      : await create({ input: { name: String(data.get("name")), ...fields } });
    if (!outcome.error) {
      form.reset();
      props.onSaved();
    }
  }
  const problem = problemOf(existing ? updated.error : created.error);
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
      <button type="submit" disabled={created.fetching || updated.fetching}>
        {existing ? "Save tag type" : "Create tag type"}
      </button>
      {props.onCancel && (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      )}
      <ProblemBanner problem={problem} />
    </form>
  );
}
