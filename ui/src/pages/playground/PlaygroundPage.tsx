import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useQuery, useSubscription } from "urql";
import { BUILT_IN_CONTEXT_FIELDS } from "../../components/ConstraintsEditor.tsx";
import { Field, SelectField } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

const PlaygroundEnvironments = graphql(`
  query PlaygroundEnvironments { environments { id name enabled sortOrder } }
`);

/** `evaluatedFlags`: the answers now, then again after each change that alters one. */
const EvaluatedFlags = graphql(`
  subscription EvaluatedFlags($environment: String!, $context: EvaluationContextInput!) {
    evaluatedFlags(environment: $environment, context: $context) {
      name
      project
      enabled
      reason
      onInEnvironment
      variant { name enabled }
      matchedStrategy { id name }
    }
  }
`);

type Answer = ResultOf<typeof EvaluatedFlags>["evaluatedFlags"][number];
type Query = { environment: string; context: Record<string, unknown> };

/** The context fields set by name; everything else goes into `properties`. */
const NAMED = BUILT_IN_CONTEXT_FIELDS.filter((f) => f !== "environment" && f !== "currentTime");

/**
 * The playground: every flag of an environment evaluated for a context as an SDK would, with the
 * variant and why; it follows changes live (a toggle elsewhere shows here at once).
 */
export default function PlaygroundPage() {
  const [environments] = useQuery({ query: PlaygroundEnvironments });
  const [query, setQuery] = useState<Query | null>(null);
  const choices = (environments.data?.environments ?? []).filter((e) => e.enabled);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const context: Record<string, unknown> = {};
    for (const field of NAMED) {
      const value = String(data.get(field) ?? "").trim();
      if (value) context[field] = value;
    }
    const properties = propertiesOf(String(data.get("properties") ?? ""));
    if (Object.keys(properties).length) context.properties = properties;
    setQuery({ environment: String(data.get("environment")), context });
  }

  return (
    <>
      <PageTitle>Playground</PageTitle>
      <Pending fetching={environments.fetching && !environments.data} error={environments.error} />
      <form className="stacked-form card" aria-label="Context" onSubmit={submit}>
        <SelectField label="Environment" name="environment" required>
          {choices.map((e) => (
            <option key={e.id}>{e.name}</option>
          ))}
        </SelectField>
        {NAMED.map((field) => (
          <Field key={field} label={field} name={field} />
        ))}
        <div className="field">
          <label htmlFor="playground-properties">Other properties (one name=value a line)</label>
          <textarea id="playground-properties" name="properties" rows={3} />
        </div>
        <button type="submit">Evaluate</button>
      </form>
      {query && <Answers query={query} />}
    </>
  );
}

function propertiesOf(text: string): Record<string, string> {
  const entries = text
    .split("\n")
    .map((line) => line.split("="))
    .filter((parts) => parts.length >= 2 && (parts[0] ?? "").trim())
    .map(([name, ...rest]) => [(name ?? "").trim(), rest.join("=").trim()]);
  return Object.fromEntries(entries);
}

function Answers(props: { query: Query }) {
  const [result] = useSubscription({ query: EvaluatedFlags, variables: props.query });
  const answers = result.data?.evaluatedFlags;
  return (
    <>
      <Pending fetching={!answers && !result.error} error={result.error} />
      {answers && (
        <DataTable
          caption={<caption className="hint">In {props.query.environment}, following changes live</caption>}
          columns={["Flag", "Answer", "Variant", "Why"]}
        >
          {answers.length === 0 && <WideRow columns={4}>No flag in this environment.</WideRow>}
          {answers.map((a) => (
            <tr key={`${a.project}/${a.name}`}>
              <th scope="row">
                <Link to={`/projects/${a.project}/flags/${a.name}`}>{a.name}</Link>
              </th>
              <td>
                <span className={a.enabled ? "badge on" : "badge off"}>{a.enabled ? "on" : "off"}</span>
              </td>
              <td>{a.variant.enabled ? a.variant.name : "—"}</td>
              <td>{why(a)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

const REASONS: Record<string, string> = {
  DEPENDENCY_NOT_SATISFIED: "a parent flag's condition is not met",
  FLAG_DISABLED: "the flag is off in this environment",
  NO_STRATEGIES: "on, with no strategy: on for everyone",
  NO_STRATEGY_MATCHED: "no strategy matched this context",
  STRATEGY_MATCHED: "a strategy matched",
  UNKNOWN_FLAG: "no such flag",
};

function why(a: Answer): string {
  const reason = REASONS[a.reason] ?? a.reason;
  return a.reason === "STRATEGY_MATCHED" && a.matchedStrategy
    ? `${reason}: ${a.matchedStrategy.name}`
    : reason;
}
