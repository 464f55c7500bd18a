import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";
import { SecretOnce } from "./SecretOnce.tsx";

const PersonalTokenList = graphql(`
  query PersonalTokenList { personalAccessTokens { id databaseId description createdAt expiresAt seenAt } }
`);

const CreatePersonalToken = graphql(`
  mutation CreatePersonalAccessToken($input: CreatePersonalAccessTokenInput!) {
    createPersonalAccessToken(input: $input) { secret token { id databaseId description } }
  }
`);

const DeletePersonalToken = graphql(`
  mutation DeletePersonalAccessToken($id: Int!) { deletePersonalAccessToken(id: $id) }
`);

/** A month from now, as a date input's value: a sensible default expiry. */
function inAMonth(): string {
  return new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
}

/** The signed-in user's personal access tokens: act as the user through the API. */
export function PersonalTokens() {
  const [result, refetch] = useQuery({ query: PersonalTokenList, requestPolicy: "cache-and-network" });
  const [created, create] = useMutation(CreatePersonalToken);
  const [, remove] = useMutation(DeletePersonalToken);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const tokens = result.data?.personalAccessTokens;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const outcome = await create({
      input: {
        description: String(data.get("description")),
        expiresAt: new Date(`${String(data.get("expiresAt"))}T23:59:59`).toISOString(),
      },
    });
    const token = outcome.data?.createPersonalAccessToken;
    if (token) {
      setSecret({ name: token.token.description, secret: token.secret });
      form.reset();
      reload();
    }
  }

  async function revoke(id: number, description: string) {
    if (!window.confirm(`Delete personal access token ${description}?`)) return;
    const outcome = await remove({ id });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  const createProblem = problemOf(created.error);
  return (
    <section aria-labelledby="personal-tokens">
      <h2 id="personal-tokens">Personal access tokens</h2>
      {secret && <SecretOnce name={secret.name} secret={secret.secret} onDismiss={() => setSecret(null)} />}
      <form className="inline-form" onSubmit={submit} aria-label="New personal access token">
        <Field label="What it is for" name="description" required problem={createProblem} />
        <Field
          label="Expires on"
          name="expiresAt"
          type="date"
          required
          defaultValue={inAMonth()}
          problem={createProblem}
        />
        <button type="submit" disabled={created.fetching}>
          Create personal access token
        </button>
        <ProblemBanner problem={createProblem} />
      </form>
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !tokens} error={result.error} />
      {tokens && tokens.length === 0 && <p>No personal access tokens.</p>}
      {tokens && tokens.length > 0 && (
        <ul className="plain-list">
          {tokens.map((token) => (
            <li key={token.id}>
              {token.description}{" "}
              <span className="hint">
                expires {new Date(token.expiresAt).toLocaleDateString()}, last used{" "}
                {token.seenAt ? new Date(token.seenAt).toLocaleString() : "never"}
              </span>{" "}
              <button
                type="button"
                className="danger"
                onClick={() => void revoke(token.databaseId, token.description)}
              >
                Delete {token.description}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
