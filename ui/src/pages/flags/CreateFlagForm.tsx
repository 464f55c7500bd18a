import { useQuery } from "urql";
import { NamedOptions, ProjectOptions } from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { optionalText, useCreateForm } from "../../lib/form-submit.ts";
import { CreateFlag, FilterOptions } from "./queries.ts";

/** A new flag: its name, description, project (from the projects) and type (from the flag types). */
export function CreateFlagForm(props: { onCreated(): void }) {
  const [options] = useQuery({ query: FilterOptions });
  const projects = options.data?.projects ?? [];
  const types = options.data?.featureTypes ?? [];
  const { submit, busy, problem } = useCreateForm(
    CreateFlag,
    (data) => ({
      project: String(data.get("project") || "default"),
      input: {
        name: String(data.get("name")),
        description: optionalText(data, "description"),
        type: optionalText(data, "type"),
      },
    }),
    props.onCreated,
  );
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
        <ProjectOptions projects={projects} />
      </SelectField>
      <SelectField
        key={`t${types.length}`}
        label="Of type"
        name="type"
        defaultValue="release"
        problem={problem}
      >
        {types.length === 0 && <option value="release">release</option>}
        <NamedOptions items={types} valueOf={(t) => t.id} />
      </SelectField>
      <button type="submit" disabled={busy}>
        Create flag
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
