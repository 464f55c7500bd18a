import { type FormEvent, useState } from "react";
import { useClient, useMutation, useQuery } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { PageTitle } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

const Choices = graphql(`
  query ImportExportChoices { projects { id databaseId name } environments { id name } }
`);

const ExportFlags = graphql(`
  query ExportFlags($environment: String!, $project: String, $tag: String) {
    exportFeatures(environment: $environment, project: $project, tag: $tag)
  }
`);

const ValidateImport = graphql(`
  query ValidateImport($project: String!, $environment: String!, $data: JSON!) {
    validateFeatureImport(project: $project, environment: $environment, data: $data) {
      errors { message affectedItems }
      warnings { message affectedItems }
      permissions { message affectedItems }
    }
  }
`);

const ImportFlags = graphql(`
  mutation ImportFlags($project: String!, $environment: String!, $data: JSON!) {
    importFeatures(project: $project, environment: $environment, data: $data) { created updated events }
  }
`);

type Validation = ResultOf<typeof ValidateImport>["validateFeatureImport"];
type Target = { project: string; environment: string; data: unknown };

/** Export flags to Unleash's export document, and import one: validated first, as Unleash does. */
export default function ImportExportPage() {
  const [choices] = useQuery({ query: Choices });
  const projects = choices.data?.projects ?? [];
  const environments = choices.data?.environments ?? [];
  return (
    <>
      <PageTitle>Export and import</PageTitle>
      <ExportForm projects={projects} environments={environments} />
      <ImportForm projects={projects} environments={environments} />
    </>
  );
}

type Lists = {
  projects: readonly { id: string; databaseId: string; name: string }[];
  environments: readonly { id: string; name: string }[];
};

function ExportForm(props: Lists) {
  const client = useClient();
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [href, setHref] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const result = await client
      .query(
        ExportFlags,
        {
          environment: String(data.get("environment")),
          project: String(data.get("project") || "") || null,
          tag: String(data.get("tag") || "") || null,
        },
        { requestPolicy: "network-only" },
      )
      .toPromise();
    setProblem(problemOf(result.error));
    if (result.data) {
      const json = JSON.stringify(result.data.exportFeatures, null, 2);
      setHref(URL.createObjectURL(new Blob([json], { type: "application/json" })));
    }
  }

  return (
    <form className="stacked-form card" aria-label="Export" onSubmit={submit}>
      <h2>Export</h2>
      <SelectField label="Environment to export" name="environment" required>
        {props.environments.map((e) => (
          <option key={e.id}>{e.name}</option>
        ))}
      </SelectField>
      <SelectField label="Project to export" name="project">
        <option value="">Every project</option>
        {props.projects.map((p) => (
          <option key={p.id} value={p.databaseId}>
            {p.name}
          </option>
        ))}
      </SelectField>
      <Field label="Only flags with the tag (type:value)" name="tag" />
      <button type="submit">Export</button>
      {href && (
        <a href={href} download="vexil-export.json">
          Download the export
        </a>
      )}
      <ProblemBanner problem={problem} showFieldErrors />
    </form>
  );
}

function ImportForm(props: Lists) {
  const client = useClient();
  const [validating, setValidating] = useState(false);
  const [importing, runImport] = useMutation(ImportFlags);
  const [target, setTarget] = useState<Target | null>(null);
  const [validation, setValidation] = useState<Validation | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);

  async function check(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setOutcome(null);
    let data: unknown;
    try {
      const file = form.get("file");
      data = JSON.parse(file instanceof File && file.size > 0 ? await file.text() : String(form.get("text")));
    } catch {
      setProblem({ fields: {}, general: ["The document is not JSON."] });
      return;
    }
    const next = { project: String(form.get("project")), environment: String(form.get("environment")), data };
    setValidating(true);
    const result = await client.query(ValidateImport, next, { requestPolicy: "network-only" }).toPromise();
    setValidating(false);
    setProblem(problemOf(result.error));
    setTarget(next);
    setValidation(result.data?.validateFeatureImport ?? null);
  }

  async function confirm() {
    if (!target) return;
    const result = await runImport(target);
    setProblem(problemOf(result.error));
    const done = result.data?.importFeatures;
    if (done) {
      setOutcome(
        `Imported: ${done.created.length} created, ${done.updated.length} updated, ${done.events} events.`,
      );
      setValidation(null);
    }
  }

  const blocked = !validation || validation.errors.length > 0 || validation.permissions.length > 0;
  return (
    <section className="card" aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <form className="stacked-form" aria-label="Import" onSubmit={check}>
        <SelectField label="Into project" name="project" required>
          {props.projects.map((p) => (
            <option key={p.id} value={p.databaseId}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Into environment" name="environment" required>
          {props.environments.map((e) => (
            <option key={e.id}>{e.name}</option>
          ))}
        </SelectField>
        <div className="field">
          <label htmlFor="import-file">Export file</label>
          <input id="import-file" name="file" type="file" accept="application/json,.json" />
        </div>
        <div className="field">
          <label htmlFor="import-text">Or paste the document</label>
          <textarea id="import-text" name="text" rows={6} />
        </div>
        <button type="submit" disabled={validating}>
          Validate
        </button>
      </form>
      {validation && (
        <section aria-label="Validation">
          <Findings title="Errors (the import is refused)" items={validation.errors} />
          <Findings title="Missing permissions" items={validation.permissions} />
          <Findings title="Warnings" items={validation.warnings} />
          {!blocked && <p>The document can be imported.</p>}
          <button type="button" disabled={blocked || importing.fetching} onClick={() => void confirm()}>
            Import
          </button>
        </section>
      )}
      {outcome && <p role="status">{outcome}</p>}
      <ProblemBanner problem={problem} showFieldErrors />
    </section>
  );
}

function Findings(props: {
  title: string;
  items: readonly { message: string; affectedItems: readonly string[] }[];
}) {
  if (props.items.length === 0) return null;
  return (
    <>
      <h3>{props.title}</h3>
      <ul>
        {props.items.map((item) => (
          <li key={item.message}>
            {item.message}
            {item.affectedItems.length > 0 && `: ${item.affectedItems.join(", ")}`}
          </li>
        ))}
      </ul>
    </>
  );
}
