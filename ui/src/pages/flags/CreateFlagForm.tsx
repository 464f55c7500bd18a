import type { FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { CreateFlag, FilterOptions } from "./queries.ts";

/** A new flag: its name, description, project (from the projects) and type (from the flag types). */
export function CreateFlagForm(props: { onCreated(): void }) {
  const [result, create] = useMutation(CreateFlag);
  const [options] = useQuery({ query: FilterOptions });
  const projects = options.data?.projects ?? [];
  const types = options.data?.featureTypes ?? [];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const created = await create({
      project: String(data.get("project") || "default"),
      input: {
        name: String(data.get("name")),
        description: String(data.get("description") || "") || null,
        type: String(data.get("type") || "") || null,
      },
    });
    if (!created.error) {
      form.reset();
      props.onCreated();
    }
  }
  const problem = problemOf(result.error);
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New flag">
      <Field label="New flag name" name="name" required problem={problem} />
      <Field label="Description" name="description" problem={problem} />
      <SelectField
        key={`p${projects.length}`}
        label="In project"
        name="project"
        defaultValue="default"
        problem={problem}
      >
        {projects.length === 0 && <option value="default">default</option>}
        {projects.map((p) => (
          <option key={p.id} value={p.databaseId}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        key={`t${types.length}`}
        label="Of type"
        name="type"
        defaultValue="release"
        problem={problem}
      >
        {types.length === 0 && <option value="release">release</option>}
        {types.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={result.fetching}>
        Create flag
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
