import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import {
  ConstraintsEditor,
  type ConstraintValue,
  constraintInput,
} from "../../components/ConstraintsEditor.tsx";
import { Field, SelectField } from "../../components/form.tsx";
import { fieldProblem, type PathProblem, pathProblemOf } from "../../lib/path-problems.ts";
import { type ChangeOutcome, useEnvironmentChange, useFlag } from "./context.ts";
import { type FlagStrategy, strategyPayload } from "./EnvironmentSection.tsx";
import { AddStrategy, UpdateStrategy } from "./queries.ts";
import { GeneralProblems, VariantsFields, type VariantValue } from "./VariantsEditor.tsx";

type ParameterKind = "percentage" | "stickiness" | "text" | "list";
type StrategyParameter = { key: string; label: string; kind: ParameterKind };
type StrategyType = { name: string; label: string; parameters: StrategyParameter[] };

const PERCENTAGE: StrategyParameter = { key: "percentage", label: "Percentage", kind: "percentage" };
const GROUP_ID: StrategyParameter = { key: "groupId", label: "Group id", kind: "text" };

/** The strategy types the server evaluates (src/modules/evaluation/strategies.logic.ts) and their parameters. */
export const STRATEGY_TYPES: StrategyType[] = [
  { name: "default", label: "Standard (everyone)", parameters: [] },
  {
    name: "flexibleRollout",
    label: "Gradual rollout",
    parameters: [
      { key: "rollout", label: "Rollout %", kind: "percentage" },
      { key: "stickiness", label: "Stickiness", kind: "stickiness" },
      GROUP_ID,
    ],
  },
  {
    name: "userWithId",
    label: "User ids",
    parameters: [{ key: "userIds", label: "User ids (comma-separated)", kind: "list" }],
  },
  {
    name: "gradualRolloutUserId",
    label: "Gradual rollout by user id",
    parameters: [PERCENTAGE, GROUP_ID],
  },
  {
    name: "gradualRolloutSessionId",
    label: "Gradual rollout by session id",
    parameters: [PERCENTAGE, GROUP_ID],
  },
  {
    name: "gradualRolloutRandom",
    label: "Random rollout",
    parameters: [PERCENTAGE],
  },
  {
    name: "remoteAddress",
    label: "IP addresses",
    parameters: [{ key: "IPs", label: "IPs or ranges (comma-separated)", kind: "list" }],
  },
  {
    name: "applicationHostname",
    label: "Host names",
    parameters: [{ key: "hostNames", label: "Host names (comma-separated)", kind: "list" }],
  },
];

export type StrategyValue = {
  name: string;
  title: string | null;
  disabled: boolean;
  parameters: Record<string, string>;
  constraints: ConstraintValue[];
  segments: number[];
  variants: VariantValue[];
};

const NEW_STRATEGY: StrategyValue = {
  name: "flexibleRollout",
  title: null,
  disabled: false,
  parameters: { rollout: "100", stickiness: "default", groupId: "" },
  constraints: [],
  segments: [],
  variants: [],
};

/** One line about what a strategy does, for the list. */
export function strategySummary(strategy: FlagStrategy): string {
  const parameters = (strategy.parameters ?? {}) as Record<string, string>;
  const parts: string[] = [];
  if (parameters.rollout !== undefined)
    parts.push(`${parameters.rollout}% of ${parameters.stickiness ?? "default"}`);
  if (parameters.percentage !== undefined) parts.push(`${parameters.percentage}%`);
  for (const key of ["userIds", "IPs", "hostNames"])
    if (parameters[key]) parts.push(`${key}: ${parameters[key]}`);
  for (const c of strategy.constraints) {
    const values = c.values.length ? c.values.join(", ") : (c.value ?? "");
    parts.push(`${c.contextName} ${c.inverted ? "NOT " : ""}${c.operator} ${values}`);
  }
  if (strategy.segments.length) parts.push(`${strategy.segments.length} segment(s)`);
  if (strategy.variants.length) parts.push(`variants: ${strategy.variants.map((v) => v.name).join(", ")}`);
  return parts.join(" · ") || "on for everyone";
}

function strategyInput(value: StrategyValue) {
  const own = new Set(STRATEGY_TYPES.find((t) => t.name === value.name)?.parameters.map((p) => p.key));
  const others = new Set(
    STRATEGY_TYPES.flatMap((t) => t.parameters.map((p) => p.key)).filter((k) => !own.has(k)),
  );
  // Parameters left from switching type are not sent; those no type here knows (a custom
  // strategy's) are kept as they are.
  const parameters = Object.fromEntries(
    Object.entries(value.parameters).filter(([key, v]) => !others.has(key) && v !== ""),
  );
  return {
    name: value.name,
    title: value.title || null,
    disabled: value.disabled,
    parameters,
    constraints: value.constraints.map(constraintInput),
    segments: value.segments,
    variants: value.variants.map((v) => ({ ...v, weight: Math.round(v.weight) })),
  };
}

type EditorProps = {
  environment: string;
  needsReview: boolean;
  strategy: FlagStrategy | null;
  onDone(outcome: ChangeOutcome): void;
  onCancel(): void;
};

/** Creates or edits a strategy (spec 2.6) with its constraints, segments and variants. */
export function StrategyEditor(props: EditorProps) {
  const { project, name } = useFlag();
  const [value, setValue] = useState<StrategyValue>(() =>
    props.strategy ? strategyPayload(props.strategy) : NEW_STRATEGY,
  );
  const [problem, setProblem] = useState<PathProblem | null>(null);
  const [saving, setSaving] = useState(false);
  const [, add] = useMutation(AddStrategy);
  const [, update] = useMutation(UpdateStrategy);
  const run = useEnvironmentChange(props.environment, props.needsReview);
  const existing = props.strategy;
  const formLabel = existing
    ? `Edit strategy ${existing.title || existing.name}`
    : `New strategy in ${props.environment}`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    const input = strategyInput(value);
    const target = { project, name, environment: props.environment };
    const outcome = existing
      ? await run(() => update({ ...target, id: existing.databaseId, input }), {
          action: "updateStrategy",
          payload: { id: existing.databaseId, ...input },
        })
      : await run(() => add({ ...target, input }), { action: "addStrategy", payload: input });
    setSaving(false);
    setProblem(pathProblemOf(outcome.error));
    if (!outcome.error) props.onDone(outcome);
  }

  return (
    <form className="strategy-editor card" aria-label={formLabel} onSubmit={submit}>
      <h5>{formLabel}</h5>
      <StrategyBasics value={value} onChange={setValue} problem={problem} />
      <ConstraintsFields
        constraints={value.constraints}
        onChange={(constraints) => setValue({ ...value, constraints })}
        problem={problem}
      />
      <SegmentsFields segments={value.segments} onChange={(segments) => setValue({ ...value, segments })} />
      <VariantsFields
        legend="Strategy variants"
        variants={value.variants}
        onChange={(variants) => setValue({ ...value, variants })}
        problem={problem}
        withOverrides={false}
      />
      <GeneralProblems problem={problem} />
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {props.needsReview ? "Propose strategy" : "Save strategy"}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The built-in strategy types, then the custom ones defined on the instance (not deprecated). */
function useStrategyTypes(): StrategyType[] {
  const { choices } = useFlag();
  const custom = (choices?.strategyDefinitions ?? [])
    .filter((d) => d.editable && !d.deprecated)
    .map((d) => ({
      name: d.name,
      label: d.title || d.name,
      parameters: d.parameters.map((p) => ({
        key: p.name,
        label: `${p.name}${p.required ? " (required)" : ""}`,
        kind: (p.type === "percentage" ? "percentage" : p.type === "list" ? "list" : "text") as ParameterKind,
      })),
    }));
  return [...STRATEGY_TYPES, ...custom];
}

function StrategyBasics(props: {
  value: StrategyValue;
  onChange(value: StrategyValue): void;
  problem: PathProblem | null;
}) {
  const { value, onChange, problem } = props;
  const types = useStrategyTypes();
  const type = types.find((t) => t.name === value.name);
  const setParameter = (key: string, v: string) =>
    onChange({ ...value, parameters: { ...value.parameters, [key]: v } });
  return (
    <div className="field-grid">
      <SelectField
        label="Strategy type"
        name="name"
        value={value.name}
        problem={fieldProblem(problem, "name", "name")}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
      >
        {!type && <option value={value.name}>{value.name}</option>}
        {types.map((t) => (
          <option key={t.name} value={t.name}>
            {t.label} ({t.name})
          </option>
        ))}
      </SelectField>
      <Field
        label="Title"
        name="title"
        value={value.title ?? ""}
        problem={fieldProblem(problem, "title", "title")}
        onChange={(e) => onChange({ ...value, title: e.target.value })}
      />
      {type?.parameters.map((p) => (
        <ParameterField
          key={p.key}
          parameter={p}
          value={value.parameters[p.key] ?? ""}
          onChange={(v) => setParameter(p.key, v)}
          problem={problem}
        />
      ))}
      <div className="field checkbox">
        <label>
          <input
            type="checkbox"
            checked={value.disabled}
            onChange={(e) => onChange({ ...value, disabled: e.target.checked })}
          />{" "}
          Strategy disabled
        </label>
      </div>
    </div>
  );
}

function ParameterField(props: {
  parameter: StrategyType["parameters"][number];
  value: string;
  onChange(value: string): void;
  problem: PathProblem | null;
}) {
  const { parameter, problem } = props;
  const { choices } = useFlag();
  const path = `parameters.${parameter.key}`;
  if (parameter.kind === "stickiness") {
    const fields = [
      "default",
      "random",
      ...(choices?.contextFields ?? []).filter((f) => f.stickiness).map((f) => f.name),
    ];
    const options = [...new Set([...fields, "userId", "sessionId", props.value].filter(Boolean))];
    return (
      <SelectField
        label={parameter.label}
        name={parameter.key}
        value={props.value || "default"}
        problem={fieldProblem(problem, path, parameter.key)}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </SelectField>
    );
  }
  return (
    <Field
      label={parameter.label}
      name={parameter.key}
      value={props.value}
      problem={fieldProblem(problem, path, parameter.key)}
      onChange={(e) => props.onChange(e.target.value)}
      {...(parameter.kind === "percentage"
        ? { type: "number", min: 0, max: 100, step: 1, required: true }
        : {})}
    />
  );
}

function ConstraintsFields(props: {
  constraints: ConstraintValue[];
  onChange(constraints: ConstraintValue[]): void;
  problem: PathProblem | null;
}) {
  const { choices } = useFlag();
  return (
    <fieldset className="constraints">
      <legend>Constraints</legend>
      <ConstraintsEditor
        value={props.constraints}
        onChange={props.onChange}
        contextFields={choices?.contextFields ?? []}
        problem={props.problem}
      />
    </fieldset>
  );
}

function SegmentsFields(props: { segments: number[]; onChange(segments: number[]): void }) {
  const { choices } = useFlag();
  const segments = choices?.segments ?? [];
  if (segments.length === 0) return null;
  const toggle = (id: number, on: boolean) =>
    props.onChange(on ? [...props.segments, id] : props.segments.filter((s) => s !== id));
  return (
    <fieldset className="segments">
      <legend>Segments</legend>
      {segments.map((s) => (
        <label key={s.id} className="checkbox">
          <input
            type="checkbox"
            checked={props.segments.includes(s.databaseId)}
            onChange={(e) => toggle(s.databaseId, e.target.checked)}
          />{" "}
          {s.name}
        </label>
      ))}
    </fieldset>
  );
}
