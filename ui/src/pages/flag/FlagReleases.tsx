import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useMutation, useQuery, useSubscription } from "urql";
import { ProblemBanner } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { ApplyTemplateForm } from "./ApplyTemplateForm.tsx";
import { type ChangeOutcome, useEnvironmentChange, useFlag } from "./context.ts";
import { OutcomeNotice } from "./EnvironmentSection.tsx";
import type { EnvironmentFields } from "./queries.ts";
import {
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
type Pending = ResultOf<typeof ReleasePlanQuery>["releasePlanChangeRequests"];
type Tripped = {
  value: number;
  safeguard: { metricName: string; aggregationMode: string; operator: string; threshold: number };
};

/** How a safeguard's reading is compared, as its line says it. */
const BASELINE_WORDS: Record<string, string> = {
  previousMilestone: ", its rise since the previous milestone,",
  flagOff: ", how far users with the flag are above those without,",
};

/**
 * Release plans (issue 41.4): per environment, the plan with its milestones, progress, safeguards
 * (with their metric's last hour) and why it paused, followed live; pause, resume, advance, roll
 * back; or a template to apply, and the environment's strategies to save as one. Where the
 * environment needs review (`reviewed`), adding, advancing, rolling back and removing are
 * proposed as change requests, and the requests pending for the release are listed (D-26).
 */
export function FlagReleases(props: { environments: Environment[]; reviewed: ReadonlySet<string> }) {
  return (
    <section className="card" aria-labelledby="releases-heading">
      <h2 id="releases-heading">Releases</h2>
      {props.environments.map((environment) => (
        <EnvironmentRelease
          key={environment.id}
          environment={environment}
          needsReview={props.reviewed.has(environment.name)}
        />
      ))}
    </section>
  );
}

function EnvironmentRelease(props: { environment: Environment; needsReview: boolean }) {
  const { project, name } = useFlag();
  const environment = props.environment.name;
  const variables = { project, feature: name, environment };
  const [result, reexecute] = useQuery({ query: ReleasePlanQuery, variables });
  // The plan now, then after each change to the flag there (milestones, pauses, trips, requests).
  const [live] = useSubscription({ query: ReleasePlanSubscription, variables });
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const stored = live.data ? live.data.releasePlan : result.data?.releasePlan;
  const plan = stored ? readFragment(ReleasePlanFields, stored) : null;
  // What the subscription brings can change the pending requests too (a step proposed, applied).
  useEffect(() => {
    if (live.data) reexecute({ requestPolicy: "network-only" });
  }, [live.data, reexecute]);
  const onOutcome = (next: ChangeOutcome) => {
    setOutcome(next);
    reexecute({ requestPolicy: "network-only" });
  };
  return (
    <section aria-label={`Release in ${environment}`}>
      <h3>{environment}</h3>
      <OutcomeNotice outcome={outcome} />
      {result.data && (
        <PendingRequests
          environment={environment}
          requests={result.data.releasePlanChangeRequests}
          plan={plan}
          templates={result.data.releaseTemplates}
        />
      )}
      {plan ? (
        <PlanView
          plan={plan}
          environment={environment}
          needsReview={props.needsReview}
          onOutcome={onOutcome}
        />
      ) : (
        result.data && (
          <ApplyTemplateForm
            environment={props.environment}
            needsReview={props.needsReview}
            templates={result.data.releaseTemplates}
            metrics={result.data.impactMetrics}
            onOutcome={onOutcome}
          />
        )
      )}
    </section>
  );
}

/** The open change requests that add, remove or move on this release, each with what it does. */
function PendingRequests(props: {
  environment: string;
  requests: Pending;
  plan: Plan | null;
  templates: { databaseId: string; name: string }[];
}) {
  if (props.requests.length === 0) return null;
  const describe = (change: { action: string; payload: unknown }) => {
    const payload = (change.payload ?? {}) as { templateId?: string; milestoneId?: string };
    if (change.action === "addReleasePlan") {
      const template = props.templates.find((t) => t.databaseId === payload.templateId);
      return `add the plan "${template?.name ?? payload.templateId}"`;
    }
    if (change.action === "deleteReleasePlan") return "remove the plan";
    const milestone = props.plan?.milestones.find((m) => m.databaseId === payload.milestoneId);
    return `start "${milestone?.name ?? payload.milestoneId}"`;
  };
  return (
    <div className="banner info" role="note">
      <p>Pending change requests for this release:</p>
      <ul aria-label={`Pending release changes in ${props.environment}`}>
        {props.requests.map((request) => (
          <li key={request.databaseId}>
            <Link to={`/change-requests/${request.databaseId}`} className="cr-link">
              #{request.databaseId}
            </Link>{" "}
            ({request.state}):{" "}
            {request.features
              .flatMap((f) => f.changes)
              .filter((c) => ["addReleasePlan", "deleteReleasePlan", "startMilestone"].includes(c.action))
              .map((c) => describe(c))
              .join(", ")}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PlanView(props: {
  plan: Plan;
  environment: string;
  needsReview: boolean;
  onOutcome(outcome: ChangeOutcome): void;
}) {
  const { project, name } = useFlag();
  const plan = props.plan;
  const target = { project, feature: name, environment: props.environment };
  const mayChange = useSession().can("UPDATE_FEATURE_STRATEGY", project, props.environment);
  const [starting, start] = useMutation(StartReleaseMilestone);
  const [pausing, pause] = useMutation(PauseReleasePlan);
  const [resuming, resume] = useMutation(ResumeReleasePlan);
  const [removing, remove] = useMutation(RemoveReleasePlan);
  // Starting a milestone and removing the plan change what SDKs get: proposed where reviewed.
  const run = useEnvironmentChange(props.environment, props.needsReview);
  const problem = problemOf(pausing.error ?? resuming.error);
  const active = plan.milestones.findIndex((m) => m.databaseId === plan.activeMilestone?.databaseId);
  const startAt = async (index: number) => {
    const milestone = plan.milestones[index];
    if (!milestone) return;
    const payload = { planId: plan.databaseId, milestoneId: milestone.databaseId };
    props.onOutcome(
      await run(() => start({ ...target, milestone: milestone.databaseId }), {
        action: "startMilestone",
        payload,
      }),
    );
  };
  const removePlan = async () =>
    props.onOutcome(
      await run(() => remove(target), { action: "deleteReleasePlan", payload: { planId: plan.databaseId } }),
    );
  const verb = props.needsReview ? "Propose: " : "";
  const step = plan.stepChangeRequest;
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
      {step && (
        <p className="banner info" role="status">
          The next milestone is due and waits for change request{" "}
          <Link to={`/change-requests/${step.databaseId}`}>#{step.databaseId}</Link> ({step.state}).
        </p>
      )}
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
            disabled={starting.fetching || active + 1 >= plan.milestones.length}
            onClick={() => void startAt(active + 1)}
          >
            {verb}Advance
          </button>
          <button
            type="button"
            className="secondary"
            disabled={starting.fetching || active <= 0}
            onClick={() => void startAt(active - 1)}
          >
            {verb}Roll back
          </button>
          <button
            type="button"
            className="secondary"
            disabled={removing.fetching}
            onClick={() => void removePlan()}
          >
            {verb}Remove plan
          </button>
        </p>
      )}
      <ProblemBanner problem={problem} />
      {plan.safeguards.map((s) => (
        <div key={s.databaseId}>
          <p>
            Safeguard: {s.metricName} {s.aggregationMode} over {s.windowSeconds} s
            {BASELINE_WORDS[s.baseline] ?? ""} {s.operator} {s.threshold} →{" "}
            {s.action === "disable" ? "flag off" : "previous milestone"}
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
