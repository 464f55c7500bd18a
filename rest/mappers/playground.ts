import { SDK_CONTEXT_FIELDS } from "../../src/modules/evaluation/context-value.logic.ts";
import { ValidationError } from "../../src/shared/errors.ts";
import { ENVIRONMENT_VARIANT } from "../fragments.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { isRecord } from "../shape.ts";

/**
 * Unleash's playground (`POST /api/admin/playground` and `/playground/advanced`) over GraphQL's
 * `evaluate` and `evaluateMany`: the request's flat context as GraphQL's context input, and each
 * evaluated flag in Unleash's playgroundFeatureSchema. GraphQL clients read the evaluation as it is;
 * this shape (strings for every context value, `"unknown"` results, edit links) is Unleash's only.
 */

/** A constraint's evaluation, as Unleash's playground shows it. */
const CONSTRAINT_EVALUATION = "contextName operator values value inverted caseInsensitive result" as const;

/**
 * What the playground selects of an evaluated flag (spreading no other fragment: see
 * rest/fragments.ts).
 */
export const FlagEvaluationFields = graphql(`
  fragment FlagEvaluationFields on FlagEvaluation {
    name project enabled onInEnvironment reason strategiesOutcome
    variant { name enabled featureEnabled payload { type value } }
    strategies {
      id name title disabled evaluationStatus result parameters
      constraints { ${CONSTRAINT_EVALUATION} }
      segments { id name result constraints { ${CONSTRAINT_EVALUATION} } }
    }
    variants { ${ENVIRONMENT_VARIANT} }
  }
`);

export type FlagEvaluation = ResultOf<typeof FlagEvaluationFields>;
type StrategyEvaluation = FlagEvaluation["strategies"][number];
type ConstraintEvaluation = StrategyEvaluation["constraints"][number];
/** One evaluated context of the advanced playground: its environment, context and flags. */
type ContextEvaluation = { environment: string; context: unknown; flags: readonly FlagEvaluation[] };

/** A context as Unleash's playground takes it: every value a string, properties at the top. */
export type FlatContext = Record<string, string>;

// --- The request ---

/** The body's `context`, which must be an object. */
export function contextOf(body: Record<string, unknown>): Record<string, unknown> {
  const context = body.context;
  if (!isRecord(context)) throw new ValidationError('"context" must be an object.');
  return context;
}

/** Flattens Unleash's context (properties and unknown fields at the top) to strings. */
export function flatContext(context: Record<string, unknown>): FlatContext {
  const { properties, ...rest } = context;
  const extra = typeof properties === "object" && properties !== null ? properties : {};
  const flat: FlatContext = {};
  for (const [key, value] of Object.entries({ ...rest, ...extra })) {
    if (value === null || value === undefined) continue;
    if (typeof value === "object") throw new ValidationError(`"context.${key}" must be a string.`);
    flat[key] = String(value);
  }
  return flat;
}

/** A flat context as the GraphQL input: SDK fields by name, the rest as properties. */
export function contextInput(flat: FlatContext): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (SDK_CONTEXT_FIELDS.has(key)) input[key] = value;
    else properties[key] = value;
  }
  return { ...input, properties };
}

/** The body's `projects`: a list of ids, or null for every project (absent, `"*"`, or a list holding it). */
export function projectsOf(body: Record<string, unknown>): string[] | null {
  const projects = body.projects;
  if (projects === undefined || projects === "*") return null;
  if (Array.isArray(projects) && projects.every((p) => typeof p === "string")) {
    return projects.includes("*") ? null : projects;
  }
  throw new ValidationError('"projects" must be a list of project ids or "*".');
}

/** GraphQL's `context` and `projects` for an Unleash playground body (a 400 for a malformed one). */
export function evaluationInput(body: Record<string, unknown>) {
  return { context: contextInput(flatContext(contextOf(body))), projects: projectsOf(body) };
}

// --- The answer ---

const OUTCOME = { ON: true, OFF: false, UNKNOWN: "unknown" } as const;

/** A constraint's result without an empty `values` or a null `value`. */
const stripConstraint = ({ values, value, ...rest }: ConstraintEvaluation) => ({
  ...rest,
  ...(values.length > 0 ? { values } : {}),
  ...(value !== null ? { value } : {}),
});

function unleashVariant(v: FlagEvaluation["variant"]) {
  return {
    name: v.name,
    enabled: v.enabled,
    ...(v.payload ? { payload: v.payload } : {}),
    feature_enabled: v.featureEnabled,
    featureEnabled: v.featureEnabled,
  };
}

/** Unleash's strategy result: `enabled` is "unknown" where evaluation was incomplete. */
function strategyResult(s: StrategyEvaluation, matched: boolean, variant: FlagEvaluation["variant"]) {
  const evaluationStatus = s.evaluationStatus.toLowerCase();
  if (s.evaluationStatus === "UNEVALUATED") return { evaluationStatus, enabled: false };
  if (s.evaluationStatus === "INCOMPLETE") return { evaluationStatus, enabled: "unknown" };
  return {
    evaluationStatus,
    enabled: s.result,
    ...(matched && variant.enabled ? { variant: unleashVariant(variant) } : {}),
  };
}

/** One evaluated flag in Unleash's playgroundFeatureSchema, in `environment`. */
export function unleashFeature(e: FlagEvaluation, environment: string) {
  const matchedIndex = e.strategies.findIndex((s) => s.result);
  const data = e.strategies.map((s, i) => ({
    name: s.name,
    ...(s.title ? { title: s.title } : {}),
    id: s.id ?? "",
    result: strategyResult(s, i === matchedIndex && e.enabled, e.variant),
    disabled: s.disabled,
    segments: s.segments.map((g) => ({
      ...g,
      name: g.name ?? "",
      constraints: g.constraints.map(stripConstraint),
    })),
    constraints: s.constraints.map(stripConstraint),
    parameters: s.parameters,
    links: {
      edit: `/projects/${e.project}/features/${encodeURIComponent(e.name)}/strategies/edit?environmentId=${encodeURIComponent(environment)}&strategyId=${s.id ?? ""}`,
    },
  }));
  return {
    name: e.name,
    projectId: e.project ?? "",
    strategies: { result: OUTCOME[e.strategiesOutcome], data },
    hasUnsatisfiedDependency: e.reason === "DEPENDENCY_NOT_SATISFIED",
    isEnabledInCurrentEnvironment: e.onInEnvironment,
    isEnabled: e.enabled,
    variant: unleashVariant(e.variant),
    variants: e.variants,
  };
}

/** Unleash's playground answer: the request's input and every evaluated flag. */
export function playgroundAnswer(evaluations: readonly FlagEvaluation[], body: Record<string, unknown>) {
  const environment = String(body.environment);
  return {
    input: { environment, projects: body.projects ?? "*", context: contextOf(body) },
    features: evaluations.map((e) => unleashFeature(e, environment)),
  };
}

/**
 * Unleash's advanced playground answer: per flag, per environment, its evaluation in each
 * context (a combination of the request's lists), in the order GraphQL evaluated them.
 */
export function advancedPlaygroundAnswer(rows: readonly ContextEvaluation[], body: Record<string, unknown>) {
  type InEnvironment = Omit<ReturnType<typeof unleashFeature>, "hasUnsatisfiedDependency"> & {
    environment: string;
    context: FlatContext;
  };
  const byFlag = new Map<
    string,
    { name: string; projectId: string; environments: Record<string, InEnvironment[]> }
  >();
  for (const row of rows) {
    for (const e of row.flags) {
      const entry = byFlag.get(e.name) ?? { name: e.name, projectId: e.project ?? "", environments: {} };
      byFlag.set(e.name, entry);
      const { hasUnsatisfiedDependency: _, ...feature } = unleashFeature(e, row.environment);
      const inEnvironment = entry.environments[row.environment] ?? [];
      entry.environments[row.environment] = inEnvironment;
      inEnvironment.push({
        ...feature,
        environment: row.environment,
        context: flatContext(isRecord(row.context) ? row.context : {}),
      });
    }
  }
  return {
    input: { environments: body.environments, projects: body.projects ?? "*", context: contextOf(body) },
    features: [...byFlag.values()],
  };
}
