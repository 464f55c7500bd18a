import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useMutation, useQuery } from "urql";
import { EnvironmentOptions, ProjectOptions } from "../../components/choices.tsx";
import { ProblemBanner, SelectField } from "../../components/form.tsx";
import { DAY, formatInstant, InstantPicker } from "../../components/InstantPicker.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { Table } from "../../components/table.tsx";
import { problemOf } from "../../lib/errors.ts";
import type { ResultOf } from "../../lib/graphql.ts";
import { describeStrategy, describeValue, strategyChanges } from "./describe.ts";
import { Changes, Projects, RestoreEnvironment, RestoreFeature, Snapshot } from "./queries.ts";

type RestoreResult = ResultOf<typeof RestoreFeature>["restoreFeature"];

/**
 * An environment's flags as they were at any instant, what changed from then to a second
 * instant, and putting a flag or the whole environment back as it was. Project, environment
 * and both instants live in the URL, so a link shows the same moment.
 */
export default function TimeTravelPage() {
  const [params, setParams] = useSearchParams();
  const [now, setNow] = useState(() => new Date());
  const [projects] = useQuery({ query: Projects });
  const projectList = projects.data?.projects ?? [];
  const project = projectList.find((p) => p.databaseId === params.get("project")) ?? projectList[0];
  const environments = project?.environments ?? [];
  const environment =
    environments.find((e) => e.name === params.get("environment"))?.name ?? environments[0]?.name;
  const at = instantOf(params.get("at"), new Date(now.getTime() - DAY));
  const to = instantOf(params.get("to"), now);

  const set = (key: string, value: string | null, replace = false) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === "project") next.delete("environment");
    setParams(next, { replace });
  };

  return (
    <>
      <PageTitle>Time travel</PageTitle>
      <Pending fetching={projects.fetching && !projects.data} error={projects.error} />
      <div className="toolbar">
        <SelectField
          label="Project"
          name="project"
          value={project?.databaseId ?? ""}
          onChange={(e) => set("project", e.target.value)}
        >
          <ProjectOptions projects={projectList} />
        </SelectField>
        <SelectField
          label="Environment"
          name="environment"
          value={environment ?? ""}
          onChange={(e) => set("environment", e.target.value)}
        >
          <EnvironmentOptions environments={environments} />
        </SelectField>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setNow(new Date());
            set("to", null);
          }}
        >
          Refresh now
        </button>
      </div>
      {project && environment && (
        <div className="time-travel">
          <InstantPicker
            label="Instant"
            value={at}
            now={now}
            onChange={(d) => set("at", d.toISOString(), true)}
          />
          <SnapshotView project={project.databaseId} environment={environment} at={at} />
          <h2>
            Changes from {formatInstant(at)} to {formatInstant(to)}
          </h2>
          <InstantPicker
            label="Compare to"
            value={to}
            now={now}
            onChange={(d) => set("to", d.toISOString(), true)}
          />
          <ChangesView project={project.databaseId} environment={environment} from={at} to={to} />
        </div>
      )}
    </>
  );
}

function instantOf(value: string | null, fallback: Date): Date {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : fallback;
}

function SnapshotView(props: { project: string; environment: string; at: Date }) {
  const { project, environment } = props;
  const at = props.at.toISOString();
  const variables = useMemo(() => ({ project, environment, at }), [project, environment, at]);
  const [result] = useQuery({ query: Snapshot, variables });
  const [restoring, restoreEnvironment] = useMutation(RestoreEnvironment);
  const [restored, setRestored] = useState<RestoreResult | null>(null);
  const snapshot = result.data?.environmentSnapshot;

  async function restoreAll() {
    if (
      !window.confirm(
        `Put every flag of ${project} in ${environment} back as it was at ${formatInstant(props.at)}?`,
      )
    )
      return;
    const done = await restoreEnvironment({ project, environment, at });
    if (done.data) setRestored(done.data.restoreEnvironment);
  }

  return (
    <section aria-labelledby="snapshot-title">
      <div className="page-title">
        <h2 id="snapshot-title">
          {environment} at {formatInstant(props.at)}
        </h2>
        <div className="actions">
          <button
            type="button"
            className="danger"
            disabled={restoring.fetching}
            onClick={() => void restoreAll()}
          >
            Restore environment to this instant
          </button>
        </div>
      </div>
      <ProblemBanner problem={problemOf(restoring.error)} showFieldErrors />
      <RestoreOutcome result={restored} />
      <Pending fetching={result.fetching && !snapshot} error={result.error} />
      {snapshot?.exactSince && (
        <p className="banner info">
          Exact from {formatInstant(new Date(snapshot.exactSince))} on; older states of older flags are
          unknown.
        </p>
      )}
      {snapshot && snapshot.features.length === 0 && <p className="banner info">No flag existed then.</p>}
      {snapshot && snapshot.features.length > 0 && (
        <Table
          className="snapshot"
          columns={[
            "Flag",
            "State",
            "Strategies",
            <span key="actions" className="visually-hidden">
              Actions
            </span>,
          ]}
        >
          {snapshot.features.map((feature) => (
            <SnapshotRow
              key={feature.name}
              feature={feature}
              {...{ project, environment, at }}
              onRestored={setRestored}
            />
          ))}
        </Table>
      )}
    </section>
  );
}

type PastFlag = ResultOf<typeof Snapshot>["environmentSnapshot"]["features"][number];

function SnapshotRow(props: {
  feature: PastFlag;
  project: string;
  environment: string;
  at: string;
  onRestored(result: RestoreResult): void;
}) {
  const { feature, project, environment, at } = props;
  const [restoring, restoreFeature] = useMutation(RestoreFeature);
  const state = feature.state;
  const here = state?.environments.find((e) => e.name === environment);

  async function restore() {
    if (
      !window.confirm(
        `Put ${feature.name} in ${environment} back as it was at ${formatInstant(new Date(at))}?`,
      )
    )
      return;
    const done = await restoreFeature({ project, name: feature.name, at, environments: [environment] });
    if (done.data) props.onRestored(done.data.restoreFeature);
  }

  return (
    <tr>
      <th scope="row">
        <Link to={`/projects/${project}/flags/${feature.name}`}>{feature.name}</Link>
        {state?.archived && <span className="badge">archived</span>}
      </th>
      <td>
        {!feature.exact ? (
          <span className="badge">unknown</span>
        ) : !state ? (
          <span className="badge">did not exist</span>
        ) : (
          <span className={here?.enabled ? "badge on" : "badge off"}>
            {here?.enabled ? "enabled" : "disabled"}
          </span>
        )}
      </td>
      <td>
        {here && here.strategies.length > 0 ? (
          <ul className="strategies">
            {[...here.strategies]
              .sort((a, b) => a.sortOrder - b.sortOrder)
              .map((strategy) => (
                <li key={strategy.databaseId}>{describeStrategy(strategy)}</li>
              ))}
          </ul>
        ) : (
          state && <span className="description">no strategies</span>
        )}
      </td>
      <td>
        {feature.exact && (
          <button
            type="button"
            className="secondary"
            disabled={restoring.fetching}
            aria-label={`Restore ${feature.name} to this instant`}
            onClick={() => void restore()}
          >
            Restore
          </button>
        )}
        <ProblemBanner problem={problemOf(restoring.error)} showFieldErrors />
      </td>
    </tr>
  );
}

function RestoreOutcome(props: { result: RestoreResult | null }) {
  const result = props.result;
  if (!result) return null;
  return (
    <div className="banner info" role="status">
      <p>
        Restored: {result.events} {result.events === 1 ? "change" : "changes"} applied.
      </p>
      {result.changeRequests.map((cr) => (
        <p key={cr.id}>
          Proposed in change request <Link to={`/change-requests/${cr.id}`}>#{cr.id}</Link> ({cr.environment}
          ).
        </p>
      ))}
      {result.skipped.map((s) => (
        <p key={s.feature}>
          {s.feature} left alone: {s.reason}
        </p>
      ))}
    </div>
  );
}

function ChangesView(props: { project: string; environment: string; from: Date; to: Date }) {
  const { project, environment } = props;
  const from = props.from.toISOString();
  const to = props.to.toISOString();
  const variables = useMemo(() => ({ project, environment, from, to }), [project, environment, from, to]);
  const [result] = useQuery({ query: Changes, variables, requestPolicy: "cache-and-network" });
  const changes = result.data?.changes;
  return (
    <section aria-label="Changes">
      <Pending fetching={result.fetching && !changes} error={result.error} />
      {changes && changes.length === 0 && <p className="banner info">Nothing changed in between.</p>}
      {changes && changes.length > 0 && (
        <ul className="changes">
          {changes.map((flag) => (
            <li key={flag.name}>
              <strong>{flag.name}</strong>
              {!flag.exact && <span className="badge">partly unknown</span>}
              <ul>
                {flag.fields.map((change) => (
                  <li key={`${change.environment}:${change.field}`}>
                    <div className="change">
                      <FieldChangeText field={change.field} before={change.before} after={change.after} />
                    </div>
                    <div className="description">
                      {change.events.map((e) => `${e.type} by ${e.createdBy}`).join(", ")}
                      {change.moreEvents ? ", …" : ""}
                    </div>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FieldChangeText(props: { field: string; before: unknown; after: unknown }) {
  const { field, before, after } = props;
  if (field === "enabled") return <>{after ? "Enabled" : "Disabled"}</>;
  if (field === "strategies") {
    return (
      <>
        Strategies:
        <ul>
          {strategyChanges(before, after).map((change) => (
            <li key={`${change.kind}:${change.before ?? ""}:${change.after ?? ""}`}>
              {change.kind === "added" && <>added {change.after}</>}
              {change.kind === "removed" && <>removed {change.before}</>}
              {change.kind === "changed" && (
                <>
                  changed from {change.before} to {change.after}
                </>
              )}
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <>
      {field}: {describeValue(field, before)} → {describeValue(field, after)}
    </>
  );
}
