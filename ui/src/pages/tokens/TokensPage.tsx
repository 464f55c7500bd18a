import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { CheckboxGroup } from "../../components/CheckboxGroup.tsx";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";
import { PersonalTokens } from "./PersonalTokens.tsx";
import { SecretOnce } from "./SecretOnce.tsx";

const ApiTokenList = graphql(`
  query ApiTokenList {
    apiTokens { id databaseId tokenName type projects environment displayPrefix createdAt expiresAt seenAt }
    projects { id databaseId name }
    environments { id name }
  }
`);

const CreateApiToken = graphql(`
  mutation CreateApiToken($input: CreateApiTokenInput!) {
    createApiToken(input: $input) { secret token { id databaseId tokenName } }
  }
`);

const DeleteApiToken = graphql(`
  mutation DeleteApiToken($id: Int!) { deleteApiToken(id: $id) }
`);

const TYPES = [
  { value: "client", label: "Client (backend SDK)" },
  { value: "frontend", label: "Frontend (browser and mobile SDK)" },
  { value: "admin", label: "Admin (full API access)" },
];

/** API tokens (create, show the secret once, revoke) and the user's personal access tokens. */
export default function TokensPage() {
  const { result, data, reload, problem, confirmThen } = useListPage({ query: ApiTokenList });
  const [, remove] = useMutation(DeleteApiToken);
  const revoke = (id: number, name: string) =>
    confirmThen(`Delete API token ${name}? Clients using it are refused at once.`, () => remove({ id }));

  return (
    <>
      <PageTitle>API tokens</PageTitle>
      {data && (
        <CreateApiTokenForm
          projects={data.projects.map((p) => ({ value: p.databaseId, label: p.name }))}
          environments={data.environments.map((e) => e.name)}
          onCreated={reload}
        />
      )}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && (
        <DataTable columns={["Name", "Type", "Projects", "Environment", "Created / last used", "Actions"]}>
          {data.apiTokens.length === 0 && <WideRow columns={6}>No API tokens.</WideRow>}
          {data.apiTokens.map((token) => (
            <tr key={token.id}>
              <th scope="row">
                {token.tokenName}
                <p className="hint">
                  <code>{token.displayPrefix}…</code>
                </p>
              </th>
              <td>{token.type}</td>
              <td>{token.projects.join(", ")}</td>
              <td>{token.environment}</td>
              <td>
                {new Date(token.createdAt).toLocaleDateString()} /{" "}
                {token.seenAt ? new Date(token.seenAt).toLocaleString() : "never"}
                {token.expiresAt && (
                  <p className="hint">expires {new Date(token.expiresAt).toLocaleString()}</p>
                )}
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  className="danger"
                  onClick={() => void revoke(token.databaseId, token.tokenName)}
                >
                  Delete {token.tokenName}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <PersonalTokens />
    </>
  );
}

function CreateApiTokenForm(props: {
  projects: { value: string; label: string }[];
  environments: string[];
  onCreated(): void;
}) {
  const [type, setType] = useState("client");
  const [projects, setProjects] = useState<string[]>([]);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [result, create] = useMutation(CreateApiToken);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const expiresAt = String(data.get("expiresAt") || "");
    const outcome = await create({
      input: {
        tokenName: String(data.get("tokenName")),
        type,
        projects: type === "admin" || projects.length === 0 ? ["*"] : projects,
        environment: type === "admin" ? null : String(data.get("environment")),
        expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
      },
    });
    const created = outcome.data?.createApiToken;
    if (created) {
      setSecret({ name: created.token.tokenName, secret: created.secret });
      form.reset();
      setProjects([]);
      props.onCreated();
    }
  }
  const problem = problemOf(result.error);
  return (
    <section aria-labelledby="new-api-token">
      <h2 id="new-api-token">New API token</h2>
      {secret && <SecretOnce name={secret.name} secret={secret.secret} onDismiss={() => setSecret(null)} />}
      <form className="stacked-form" onSubmit={submit} aria-label="New API token">
        <Field label="Token name" name="tokenName" required problem={problem} />
        <SelectField
          label="Token type"
          name="type"
          value={type}
          onChange={(e) => setType(e.target.value)}
          problem={problem}
        >
          {TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        {type !== "admin" && (
          <>
            <CheckboxGroup
              legend="Projects"
              options={props.projects}
              value={projects}
              onChange={setProjects}
              emptyMeans="every project (*)"
              message={problem?.fields.projects}
            />
            <SelectField label="Environment" name="environment" problem={problem}>
              {props.environments.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </SelectField>
          </>
        )}
        <Field label="Expires at (optional)" name="expiresAt" type="datetime-local" problem={problem} />
        <div className="form-actions">
          <button type="submit" disabled={result.fetching}>
            Create API token
          </button>
        </div>
        <ProblemBanner problem={problem} />
      </form>
    </section>
  );
}
