import { useMutation, useQuery, useSubscription } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { submitWith } from "../../lib/form-submit.ts";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { useFlag } from "./context.ts";
import { strategyPayload } from "./EnvironmentSection.tsx";
import { type EnvironmentFields, StrategyFields } from "./queries.ts";
import {
  ApplyReleaseTemplate,
  CreateReleaseTemplate,
  PauseReleasePlan,
  ReleasePlanFields,
  ReleasePlanQuery,
  ReleasePlanSubscription,
  RemoveReleasePlan,
  ResumeReleasePlan,
  SafeguardSeries,
  StartReleaseMilestone,
} from "./release-queries.ts";
import { SafeguardChart } from "./SafeguardChart.tsx";

type Environment = ResultOf<typeof EnvironmentFields>;
type Plan = ResultOf<typeof ReleasePlanFields>;
type Tripped = {
  value: number;
  safeguard: { metricName: string; aggregationMode: string; operator: string; threshold: number };
};

const MODES = ["count", "sum", "avg", "rps", "p50", "p95", "p99"];

/**
 * Release plans (issue 41.4): per environment, the plan with its milestones, progress, safeguards
 * (with their metric's last hour) and why it paused, followed live; pause, resume, advance, roll
 * back; or a template to apply, and the environment's strategies to save as one.
 */
export function FlagReleases(props: { environments: Environment[] }) {
  return (
    <section className="card" aria-labelledby="releases-heading">
      <h2 id="releases-heading">Releases</h2>
      {props.environments.map((environment) => (
        <EnvironmentRelease key={environment.id} environment={environment} />
      ))}
    </section>
  );
}

function EnvironmentRelease(props: { environment: Environment }) {
  const { project, name } = useFlag();
  const environment = props.environment.name;
  const variables = { project, feature: name, environment };
  const [result, reexecute] = useQuery({ query: ReleasePlanQuery, variables });
  // The plan now, then after each change to the flag there (milestones, pauses, trips).
  const [live] = useSubscription({ query: ReleasePlanSubscription, variables });
  const stored = live.data ? live.data.releasePlan : result.data?.releasePlan;
  const plan = stored ? readFragment(ReleasePlanFields, stored) : null;
  const refresh = () => reexecute({ requestPolicy: "network-only" });
  return (
    <section aria-label={`Release in ${environment}`}>
      <h3>{environment}</h3>
      {plan ? (
        <PlanView plan={plan} environment={environment} />
      ) : (
        result.data && (
          <NoPlan
            environment={props.environment}
            templates={result.data.releaseTemplates}
            metrics={result.data.impactMetrics}
            onApplied={refresh}
          />
        )
      )}
    </section>
  );
}

function PlanView(props: { plan: Plan; environment: string }) {
  const { project, name } = useFlag();
  const plan = props.plan;
  const target = { project, feature: name, environment: props.environment };
  const mayChange = useSession().can("UPDATE_FEATURE_STRATEGY", project, props.environment);
  const [starting, start] = useMutation(StartReleaseMilestone);
  const [pausing, pause] = useMutation(PauseReleasePlan);
  const [resuming, resume] = useMutation(ResumeReleasePlan);
  const [removing, remove] = useMutation(RemoveReleasePlan);
  const problem = problemOf(starting.error ?? pausing.error ?? resuming.error ?? removing.error);
  const active = plan.milestones.findIndex((m) => m.databaseId === plan.activeMilestone?.databaseId);
  const startAt = (index: number) => {
    const milestone = plan.milestones[index];
    if (milestone) start({ ...target, milestone: milestone.databaseId });
  };
  const tripped = plan.pauseReason as Tripped | null;
  return (
    <div>
      <p>
        <strong>{plan.name}</strong>{" "}
        <span className="badge">{plan.state === "ACTIVE" ? "running" : "paused"}</span>{" "}
        {plan.nextMilestoneAt && (
          <span className="muted">
            next milestone at {new Date(plan.nextMilestoneAt).toLocaleTimeString()}
          </span>
        )}
      </p>
      {tripped?.safeguard && (
        <div className="banner warning" role="status">
          Safeguard tripped: {tripped.safeguard.metricName} ({tripped.safeguard.aggregationMode}) was{" "}
          {tripped.value}, {tripped.safeguard.operator} {tripped.safeguard.threshold}. The flag went back and
          the plan paused.
        </div>
      )}
      <ol className="milestones" aria-label={`Milestones in ${props.environment}`}>
        {plan.milestones.map((m, i) => (
          <li key={m.databaseId} aria-current={i === active ? "step" : undefined}>
            {i === active ? <strong>{m.name} (running)</strong> : m.name}{" "}
            <span className="muted">
              {m.afterSeconds ? `then after ${m.afterSeconds} s` : "then by hand"}
            </span>
          </li>
        ))}
      </ol>
      {mayChange && (
        <p className="inline-form">
          {plan.state === "ACTIVE" ? (
            <button type="button" className="secondary" onClick={() => pause(target)}>
              Pause
            </button>
          ) : (
            <button type="button" className="secondary" onClick={() => resume(target)}>
              Resume
            </button>
          )}
          <button
            type="button"
            disabled={active + 1 >= plan.milestones.length}
            onClick={() => startAt(active + 1)}
          >
            Advance
          </button>
          <button
            type="button"
            className="secondary"
            disabled={active <= 0}
            onClick={() => startAt(active - 1)}
          >
            Roll back
          </button>
          <button type="button" className="secondary" onClick={() => remove(target)}>
            Remove plan
          </button>
        </p>
      )}
      <ProblemBanner problem={problem} />
      {plan.safeguards.map((s) => (
        <div key={s.databaseId}>
          <p>
            Safeguard: {s.metricName} {s.aggregationMode} over {s.windowSeconds} s
            {s.baseline === "previousMilestone" ? ", its rise since the previous milestone," : ""}{" "}
            {s.operator} {s.threshold} → {s.action === "disable" ? "flag off" : "previous milestone"}
          </p>
          <SafeguardChart
            query={SafeguardSeries}
            environment={props.environment}
            metric={s.metricName}
            labels={s.labelSelectors}
            threshold={s.threshold}
            version={plan.version}
          />
        </div>
      ))}
    </div>
  );
}

function NoPlan(props: {
  environment: Environment;
  templates: { databaseId: string; name: string }[];
  metrics: { name: string; type: string }[];
  onApplied(): void;
}) {
  const { project, name } = useFlag();
  const environment = props.environment.name;
  const mayChange = useSession().can("UPDATE_FEATURE_STRATEGY", project, environment);
  const mayTemplate = useSession().can("CREATE_STRATEGY");
  const [applying, apply] = useMutation(ApplyReleaseTemplate);
  const [saving, save] = useMutation(CreateReleaseTemplate);
  const problem = problemOf(applying.error);
  const saveProblem = problemOf(saving.error);
  const applyForm = submitWith(
    (data) => {
      const metric = String(data.get("metric") || "");
      const safeguards = metric
        ? [
            {
              metricName: metric,
              aggregationMode: String(data.get("mode")),
              operator: String(data.get("operator")),
              threshold: Number(data.get("threshold")),
              windowSeconds: Number(data.get("window")),
              baseline: data.get("baseline") === "on" ? "previousMilestone" : "none",
            },
          ]
        : [];
      const template = String(data.get("template"));
      return apply({
        project,
        feature: name,
        environment,
        template,
        safeguards,
        start: data.get("start") === "on",
      });
    },
    () => props.onApplied(),
  );
  const saveForm = submitWith(
    (data) =>
      save({
        input: {
          name: String(data.get("name")),
          milestones: [{ name: "All at once", strategies: props.environment.strategies.map(strategyInput) }],
        },
      }),
    (form) => {
      form.reset();
      props.onApplied();
    },
  );
  if (!mayChange) return <p className="muted">No release plan.</p>;
  return (
    <>
      <form
        className="inline-form"
        aria-label={`Apply a release template in ${environment}`}
        onSubmit={applyForm}
      >
        <SelectField label="Template" name="template" problem={problem}>
          {props.templates.map((t) => (
            <option key={t.databaseId} value={t.databaseId}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Safeguard metric" name="metric" problem={problem}>
          <option value="">none</option>
          {props.metrics.map((m) => (
            <option key={m.name} value={m.name}>
              {m.name} ({m.type})
            </option>
          ))}
        </SelectField>
        <SelectField label="Read as" name="mode" problem={problem}>
          {MODES.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </SelectField>
        <SelectField label="Trips when" name="operator" problem={problem}>
          <option value=">">above</option>
          <option value="<">below</option>
        </SelectField>
        <Field
          label="Threshold"
          name="threshold"
          type="number"
          step="any"
          defaultValue="10"
          problem={problem}
        />
        <Field label="Window (seconds)" name="window" type="number" defaultValue="300" problem={problem} />
        <label>
          <input type="checkbox" name="baseline" /> Compare with the previous milestone (the rise counts)
        </label>
        <label>
          <input type="checkbox" name="start" defaultChecked /> Start now
        </label>
        <button type="submit" disabled={applying.fetching || props.templates.length === 0}>
          Apply template
        </button>
        <ProblemBanner problem={problem} showFieldErrors />
      </form>
      {mayTemplate && props.environment.strategies.length > 0 && (
        <form
          className="inline-form"
          aria-label={`Save the strategies of ${environment} as a template`}
          onSubmit={saveForm}
        >
          <Field label="Template name" name="name" required problem={saveProblem} />
          <button type="submit" className="secondary" disabled={saving.fetching}>
            Save strategies as a template
          </button>
          <ProblemBanner problem={saveProblem} showFieldErrors />
        </form>
      )}
    </>
  );
}

/** A strategy of the flag as a milestone's strategy input (the same fields, without its id). */
function strategyInput(ref: Environment["strategies"][number]) {
  const { id: _id, ...strategy } = strategyPayload(readFragment(StrategyFields, ref));
  return strategy;
}
