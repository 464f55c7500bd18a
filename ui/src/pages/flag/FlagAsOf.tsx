import { useState } from "react";
import { Link } from "react-router";
import { useQuery } from "urql";
import { DAY, formatInstant, InstantPicker } from "../../components/InstantPicker.tsx";
import { Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { graphql } from "../../lib/graphql.ts";
import { useFlag } from "./context.ts";

const FlagAsOfQuery = graphql(`
  query FlagAsOf($name: String!, $at: DateTime!) {
    featureAt(name: $name, at: $at) {
      exact
      exactSince
      since
      lastEventId
      state {
        stale
        archived
        tags { type value }
        environments {
          name
          enabled
          strategies { databaseId name title disabled }
          variants { name }
        }
      }
    }
  }
`);

/**
 * Time travel on the flag page: a slider (or a typed instant) shows the flag as it was then,
 * rebuilt from its event log; the time-travel page compares it with now and restores it.
 */
export function FlagAsOf() {
  const { project, name } = useFlag();
  const [now] = useState(() => new Date());
  const [at, setAt] = useState(() => new Date(now.getTime() - DAY));
  const [result] = useQuery({ query: FlagAsOfQuery, variables: { name, at: at.toISOString() } });
  const past = result.data?.featureAt;
  const state = past?.state;

  return (
    <section className="card" aria-labelledby="as-of-heading">
      <h2 id="as-of-heading">As it was</h2>
      <InstantPicker label="Flag as of" value={at} now={now} onChange={setAt} />
      <Pending fetching={result.fetching && !result.data} error={result.error} />
      <section aria-live="polite" aria-label="Flag as it was">
        {result.data && !state && (
          <p className="banner info">
            {past && !past.exact && past.exactSince
              ? `Its history is exact from ${formatInstant(new Date(past.exactSince))} on.`
              : `The flag did not exist at ${formatInstant(at)}.`}
          </p>
        )}
        {state && (
          <>
            <p>
              At {formatInstant(at)}
              {past?.since && <> (since {formatInstant(new Date(past.since))})</>}:{" "}
              {state.archived && <span className="badge">archived</span>}
              {state.stale && <span className="badge off">stale</span>}
              {state.tags.map((tag) => (
                <span key={`${tag.type}:${tag.value}`} className="badge tag">
                  {tag.type}: {tag.value}
                </span>
              ))}
            </p>
            <Table columns={["Environment", "Enabled", "Strategies", "Variants"]}>
              {state.environments.map((env) => (
                <tr key={env.name}>
                  <td>{env.name}</td>
                  <td>
                    <span className={env.enabled ? "badge on" : "badge off"}>
                      {env.enabled ? "on" : "off"}
                    </span>
                  </td>
                  <td>
                    {env.strategies
                      .map((s) => `${s.title || s.name}${s.disabled ? " (disabled)" : ""}`)
                      .join(", ") || "none"}
                  </td>
                  <td>{env.variants.map((v) => v.name).join(", ") || "none"}</td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </section>
      <p>
        <Link
          to={`/time-travel?project=${encodeURIComponent(project)}&at=${encodeURIComponent(at.toISOString())}`}
        >
          Compare with now or restore on the time-travel page
        </Link>
      </p>
    </section>
  );
}
