import { type FormEvent, useId, useState } from "react";
import { useQuery } from "urql";
import { CheckboxGroup } from "../../components/CheckboxGroup.tsx";
import { CreateOrEditForm, Field, SelectField } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import type { ApiProblem } from "../../lib/errors.ts";
import { optionalText, useCreateOrUpdate } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

export const AddonFields = graphql(`
  fragment AddonFields on Addon @_unmask {
    id databaseId provider description enabled parameters events projects environments createdAt
  }
`);

const AddonChoices = graphql(`
  query AddonChoices {
    addonProviders {
      name displayName description documentationUrl howTo deprecated events
      parameters { name displayName description type required sensitive placeholder }
    }
    projects { id databaseId name }
    environments { id name }
  }
`);

const CreateAddon = graphql(
  `
  mutation CreateAddon($input: AddonInput!) { createAddon(input: $input) { ...AddonFields } }
`,
  [AddonFields],
);

const UpdateAddon = graphql(
  `
  mutation UpdateAddon($id: Int!, $input: AddonInput!) { updateAddon(id: $id, input: $input) { ...AddonFields } }
`,
  [AddonFields],
);

export type Addon = ResultOf<typeof AddonFields>;
type Provider = ResultOf<typeof AddonChoices>["addonProviders"][number];

/** What `updateAddon` needs to keep an addon as it is but for `changes`. */
export function addonInput(addon: Addon, changes: { enabled?: boolean } = {}) {
  return {
    provider: addon.provider,
    description: addon.description,
    enabled: changes.enabled ?? addon.enabled,
    // Sensitive values come back as ***** and the API keeps the stored value for them.
    parameters: addon.parameters,
    events: addon.events,
    projects: addon.projects,
    environments: addon.environments,
  };
}

/**
 * Creates an addon for a provider, or edits `addon`: the provider's parameters, the events
 * it reacts to, and the projects and environments it listens to (none: all).
 */
export function AddonForm(props: { addon?: Addon; onSaved(addon: Addon): void; onCancel?(): void }) {
  const [choices] = useQuery({ query: AddonChoices, requestPolicy: "cache-and-network" });
  const providers = choices.data?.addonProviders;
  const [providerName, setProviderName] = useState(props.addon?.provider ?? "webhook");
  const provider = providers?.find((p) => p.name === providerName);
  if (!providers || !choices.data) return <Pending fetching={choices.fetching} error={choices.error} />;
  return (
    <div className="stacked-form">
      {!props.addon && (
        <SelectField
          label="Provider"
          name="provider"
          value={providerName}
          onChange={(e) => setProviderName(e.target.value)}
        >
          {providers.map((p) => (
            <option key={p.name} value={p.name}>
              {p.displayName}
              {p.deprecated ? " (deprecated)" : ""}
            </option>
          ))}
        </SelectField>
      )}
      {provider && (
        <ProviderForm
          key={provider.name}
          provider={provider}
          addon={props.addon}
          projects={choices.data.projects.map((p) => ({ value: p.databaseId, label: p.name }))}
          environments={choices.data.environments.map((e) => ({ value: e.name }))}
          onSaved={props.onSaved}
          onCancel={props.onCancel}
        />
      )}
    </div>
  );
}

function ProviderForm(props: {
  provider: Provider;
  addon: Addon | undefined;
  projects: { value: string; label: string }[];
  environments: { value: string }[];
  onSaved(addon: Addon): void;
  onCancel: (() => void) | undefined;
}) {
  const { provider, addon } = props;
  const stored = (addon?.parameters ?? {}) as Record<string, unknown>;
  const [events, setEvents] = useState<string[]>(addon?.events ?? []);
  const [projects, setProjects] = useState<string[]>(addon?.projects ?? []);
  const [environments, setEnvironments] = useState<string[]>(addon?.environments ?? []);
  const { create, update, busy, problem } = useCreateOrUpdate(CreateAddon, UpdateAddon, addon);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parameters = Object.fromEntries(
      provider.parameters
        .map((p) => [p.name, String(data.get(`parameter-${p.name}`) ?? "")] as const)
        .filter(([, value]) => value !== ""),
    );
    const input = {
      provider: provider.name,
      description: optionalText(data, "description"),
      enabled: data.get("enabled") === "on",
      parameters,
      events,
      projects,
      environments,
    };
    const outcome = addon ? await update({ id: addon.databaseId, input }) : await create({ input });
    const saved =
      outcome.data && ("createAddon" in outcome.data ? outcome.data.createAddon : outcome.data.updateAddon);
    if (saved) props.onSaved(saved);
  }

  return (
    <CreateOrEditForm
      noun="integration"
      editing={addon?.databaseId}
      onSubmit={submit}
      busy={busy}
      problem={problem}
      onCancel={props.onCancel}
    >
      <p className="hint">
        {provider.description}{" "}
        <a href={provider.documentationUrl} target="_blank" rel="noreferrer">
          Documentation
        </a>
      </p>
      {provider.deprecated && <p className="banner info">Deprecated: {provider.deprecated}</p>}
      <Field
        label="Description"
        name="description"
        defaultValue={addon?.description ?? ""}
        problem={problem}
      />
      <label className="check">
        <input type="checkbox" name="enabled" defaultChecked={addon?.enabled ?? true} />
        Enabled
      </label>
      {provider.parameters.map((parameter) => (
        <ParameterField
          key={parameter.name}
          parameter={parameter}
          stored={stored[parameter.name]}
          problem={problem}
        />
      ))}
      <CheckboxGroup
        legend="Events"
        options={provider.events.map((e) => ({ value: e }))}
        value={events}
        onChange={setEvents}
        message={problem?.fields.events}
      />
      <CheckboxGroup
        legend="Projects"
        options={props.projects}
        value={projects}
        onChange={setProjects}
        emptyMeans="every project"
        message={problem?.fields.projects}
      />
      <CheckboxGroup
        legend="Environments"
        options={props.environments}
        value={environments}
        onChange={setEnvironments}
        emptyMeans="every environment"
        message={problem?.fields.environments}
      />
    </CreateOrEditForm>
  );
}

/** One provider parameter; read back by the form as `parameter-<name>`, reported by the API as `<name>`. */
function ParameterField(props: {
  parameter: Provider["parameters"][number];
  stored: unknown;
  problem: ApiProblem | null;
}) {
  const { parameter } = props;
  const id = useId();
  const message = props.problem?.fields[parameter.name];
  const describedBy = `${id}-help${message ? ` ${id}-error` : ""}`;
  const common = {
    id,
    name: `parameter-${parameter.name}`,
    defaultValue: props.stored === undefined || props.stored === null ? "" : String(props.stored),
    placeholder: parameter.placeholder ?? undefined,
    required: parameter.required,
    "aria-describedby": describedBy,
    "aria-invalid": message ? true : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>
        {parameter.displayName}
        {parameter.required ? " (required)" : ""}
      </label>
      {parameter.type === "textfield" ? <textarea rows={4} {...common} /> : <input {...common} />}
      <p className="hint" id={`${id}-help`}>
        {parameter.description}
        {parameter.sensitive && " Stored secretly: leaving ***** keeps the stored value."}
      </p>
      {message && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
