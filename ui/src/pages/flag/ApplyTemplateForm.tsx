import { useState } from "react";
import { type CombinedError, useMutation } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { submitWith } from "../../lib/form-submit.ts";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { type ChangeOutcome, useEnvironmentChange, useFlag } from "./context.ts";
import { strategyPayload } from "./EnvironmentSection.tsx";
import { type EnvironmentFields, StrategyFields } from "./queries.ts";
import { ApplyReleaseTemplate, CreateReleaseTemplate } from "./release-queries.ts";

type Environment = ResultOf<typeof EnvironmentFields>;

const MODES = ["count", "sum", "avg", "rps", "p50", "p95", "p99"];

/**
 * An environment without a plan: a template to apply (with a safeguard), directly or, where the
 * environment needs review, proposed as an `addReleasePlan` change (D-26); and the environment's
 * strategies to save as a template.
 */
export function ApplyTemplateForm(props: {
  environment: Environment;
  needsReview: boolean;
  templates: { databaseId: string; name: string }[];
  metrics: { name: string; type: string }[];
  onOutcome(outcome: ChangeOutcome): void;
}) {
  const { project, name } = useFlag();
  const environment = props.environment.name;
  const mayChange = useSession().can("UPDATE_FEATURE_STRATEGY", project, environment);
  const mayTemplate = useSession().can("CREATE_STRATEGY");
  const [applying, apply] = useMutation(ApplyReleaseTemplate);
  const [saving, save] = useMutation(CreateReleaseTemplate);
  const run = useEnvironmentChange(environment, props.needsReview);
  // What the API said about the last apply or proposal (shown here, by the fields).
  const [failure, setFailure] = useState<CombinedError | null>(null);
  const problem = problemOf(failure);
  const saveProblem = problemOf(saving.error);
  const applyForm = submitWith(
    async (data) => {
      const metric = String(data.get("metric") || "");
      const safeguards = metric
        ? [
            {
              metricName: metric,
              aggregationMode: String(data.get("mode")),
              operator: String(data.get("operator")),
              threshold: Number(data.get("threshold")),
              windowSeconds: Number(data.get("window")),
              baseline: String(data.get("baseline") || "none"),
            },
          ]
        : [];
      const template = String(data.get("template"));
      const start = data.get("start") === "on";
      const outcome = await run(
        () => apply({ project, feature: name, environment, template, safeguards, start }),
        { action: "addReleasePlan", payload: { templateId: template, safeguards, start } },
      );
      setFailure(outcome.error);
      if (!outcome.error) props.onOutcome(outcome);
      return { error: outcome.error ?? undefined };
    },
    () => undefined,
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
      props.onOutcome({ error: null, proposedId: null });
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
        <SelectField label="Compared with" name="baseline" problem={problem}>
          <option value="none">nothing</option>
          <option value="previousMilestone">the previous milestone (the rise counts)</option>
          <option value="flagOff">users without the flag (how far above them)</option>
        </SelectField>
        <label>
          <input type="checkbox" name="start" defaultChecked />{" "}
          {props.needsReview ? "Start when applied" : "Start now"}
        </label>
        <button type="submit" disabled={applying.fetching || props.templates.length === 0}>
          {props.needsReview ? "Propose plan" : "Apply template"}
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
