import { z } from "zod";
import { SDK_CONTEXT_FIELDS } from "../../src/modules/evaluation/context-value.logic.ts";
import { MAX_COMBINATIONS } from "../../src/modules/playground/playground.logic.ts";
import { ValidationError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { ENV_VARIANT_FIELDS } from "../fragments.ts";
import { defineRoutes } from "../route.ts";
import { environmentVariantSchema } from "./strategy-shapes.ts";

const CONSTRAINT = "contextName operator values value inverted caseInsensitive result";
const FLAG_EVALUATION_FIELDS = /* GraphQL */ `
  name project enabled onInEnvironment reason strategiesOutcome
  variant { name enabled featureEnabled payload { type value } }
  strategies {
    id name title disabled evaluationStatus result parameters
    constraints { ${CONSTRAINT} }
    segments { id name result constraints { ${CONSTRAINT} } }
  }
  variants { ${ENV_VARIANT_FIELDS} }
`;

type Constraint = { values: string[]; value: string | null } & Record<string, unknown>;
type Strategy = {
  id: string | null;
  name: string;
  title: string | null;
  disabled: boolean;
  evaluationStatus: "COMPLETE" | "INCOMPLETE" | "UNEVALUATED";
  result: boolean;
  parameters: Record<string, string>;
  constraints: Constraint[];
  segments: { id: number; name: string | null; result: boolean; constraints: Constraint[] }[];
};
type Evaluation = {
  name: string;
  project: string | null;
  enabled: boolean;
  onInEnvironment: boolean;
  reason: string;
  strategiesOutcome: "ON" | "OFF" | "UNKNOWN";
  variant: { name: string; enabled: boolean; featureEnabled: boolean; payload: unknown };
  strategies: Strategy[];
  variants: unknown[];
};

type FlatContext = Record<string, string>;

function contextOf(body: Record<string, unknown>): Record<string, unknown> {
  const context = body.context;
  if (typeof context !== "object" || context === null || Array.isArray(context)) {
    throw new ValidationError('"context" must be an object.');
  }
  return context as Record<string, unknown>;
}

/** Flattens Unleash's context (properties and unknown fields at the top) to strings. */
function flatContext(context: Record<string, unknown>): FlatContext {
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
function contextInput(flat: FlatContext): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (SDK_CONTEXT_FIELDS.has(key)) input[key] = value;
    else properties[key] = value;
  }
  return { ...input, properties };
}

function projectsOf(body: Record<string, unknown>): string[] | null {
  const projects = body.projects;
  if (projects === undefined || projects === "*") return null;
  if (Array.isArray(projects) && projects.every((p) => typeof p === "string")) {
    return projects.includes("*") ? null : projects;
  }
  throw new ValidationError('"projects" must be a list of project ids or "*".');
}

const stripConstraint = ({ values, value, ...rest }: Constraint) => ({
  ...rest,
  ...(values.length > 0 ? { values } : {}),
  ...(value !== null ? { value } : {}),
});

/** Unleash's strategy result: `enabled` is "unknown" where evaluation was incomplete. */
function strategyResult(s: Strategy, matched: boolean, variant: Evaluation["variant"]) {
  const evaluationStatus = s.evaluationStatus.toLowerCase();
  if (s.evaluationStatus === "UNEVALUATED") return { evaluationStatus, enabled: false };
  if (s.evaluationStatus === "INCOMPLETE") return { evaluationStatus, enabled: "unknown" };
  return {
    evaluationStatus,
    enabled: s.result,
    ...(matched && variant.enabled ? { variant: unleashVariant(variant) } : {}),
  };
}

const OUTCOME = { ON: true, OFF: false, UNKNOWN: "unknown" } as const;

function unleashVariant(v: Evaluation["variant"]) {
  return {
    name: v.name,
    enabled: v.enabled,
    ...(v.payload ? { payload: v.payload } : {}),
    feature_enabled: v.featureEnabled,
    featureEnabled: v.featureEnabled,
  };
}

/** One evaluated flag in Unleash's playgroundFeatureSchema. */
function unleashFeature(e: Evaluation, environment: string) {
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
    strategies: {
      result: OUTCOME[e.strategiesOutcome],
      data,
    },
    hasUnsatisfiedDependency: e.reason === "DEPENDENCY_NOT_SATISFIED",
    isEnabledInCurrentEnvironment: e.onInEnvironment,
    isEnabled: e.enabled,
    variant: unleashVariant(e.variant),
    variants: e.variants,
  };
}

const sdkContextSchema = z
  .object({
    appName: z.string().optional(),
    userId: z.string().optional(),
    sessionId: z.string().optional(),
    remoteAddress: z.string().optional(),
    environment: z.string().optional(),
    currentTime: z.string().optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .catchall(z.string());
const projectsSchema = z.union([z.array(z.string()), z.literal("*")]).optional();

/** Unleash's playgroundFeatureSchema and its parts, as unleashFeature builds them. */
const evaluatedConstraintSchema = z.object({
  contextName: z.string(),
  operator: z.string(),
  inverted: z.boolean(),
  caseInsensitive: z.boolean(),
  result: z.boolean(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
const playgroundVariantSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  payload: z.object({ type: z.string(), value: z.string() }).optional(),
  feature_enabled: z.boolean(),
  featureEnabled: z.boolean(),
});
const playgroundFeatureSchema = z.object({
  name: z.string(),
  projectId: z.string(),
  strategies: z.object({
    result: z.union([z.boolean(), z.literal("unknown")]),
    data: z.array(
      z.object({
        name: z.string(),
        title: z.string().optional(),
        id: z.string(),
        result: z.object({
          evaluationStatus: z.enum(["complete", "incomplete", "unevaluated"]),
          enabled: z.union([z.boolean(), z.literal("unknown")]),
          variant: playgroundVariantSchema.optional(),
        }),
        disabled: z.boolean(),
        segments: z.array(
          z.object({
            id: z.number().int(),
            name: z.string(),
            result: z.boolean(),
            constraints: z.array(evaluatedConstraintSchema),
          }),
        ),
        constraints: z.array(evaluatedConstraintSchema),
        parameters: z.record(z.string(), z.string()),
        links: z.object({ edit: z.string() }),
      }),
    ),
  }),
  hasUnsatisfiedDependency: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  isEnabled: z.boolean(),
  variant: playgroundVariantSchema,
  variants: z.array(environmentVariantSchema),
});
const playgroundInputSchema = z.object({
  projects: z.union([z.array(z.string()), z.literal("*")]),
  context: z.record(z.string(), z.unknown()),
});

export const playgroundRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/admin/playground",
    tag: "Playground",
    summary: "Evaluate every flag of an environment for one context",
    description:
      "Unleash's playground: each flag's result, variant and each strategy's constraints and segments. Runs " +
      "the GraphQL `evaluate` query.",
    document: `query Playground($environment: String!, $context: EvaluationContextInput!, $projects: [String!]) {
      evaluate(environment: $environment, context: $context, projects: $projects) { ${FLAG_EVALUATION_FIELDS} }
    }`,
    variables: (req) => {
      const body = objectBody(req);
      return {
        environment: body.environment,
        context: contextInput(flatContext(contextOf(body))),
        projects: projectsOf(body),
      };
    },
    respond: (data, req) => {
      const body = objectBody(req);
      const environment = String(body.environment);
      return {
        input: { environment, projects: body.projects ?? "*", context: contextOf(body) },
        features: (data.evaluate as Evaluation[]).map((e) => unleashFeature(e, environment)),
      };
    },
    schemas: {
      body: z.object({ environment: z.string(), projects: projectsSchema, context: sdkContextSchema }),
      response: z.object({
        input: playgroundInputSchema.extend({ environment: z.string() }),
        features: z.array(playgroundFeatureSchema),
      }),
    },
    errors: [400, 404],
  },
  {
    method: "POST",
    path: "/api/admin/playground/advanced",
    tag: "Playground",
    summary: "Evaluate every flag in several environments for every combination of context values",
    description:
      "A context value with commas is a list; every combination of the lists is evaluated (at most " +
      `${MAX_COMBINATIONS}), in every environment given. Runs the GraphQL \`evaluateMany\` query.`,
    document: `query AdvancedPlayground($environments: [String!]!, $context: EvaluationContextInput!,
      $projects: [String!]) {
      evaluateMany(environments: $environments, contexts: [$context], projects: $projects, combineLists: true) {
        environment context flags { ${FLAG_EVALUATION_FIELDS} }
      }
    }`,
    variables: (req) => {
      const body = objectBody(req);
      return {
        environments: body.environments,
        context: contextInput(flatContext(contextOf(body))),
        projects: projectsOf(body),
      };
    },
    respond: (data, req) => {
      const body = objectBody(req);
      const byFlag = new Map<
        string,
        { name: string; projectId: string; environments: Record<string, unknown[]> }
      >();
      type Row = { environment: string; context: Record<string, unknown>; flags: Evaluation[] };
      for (const row of data.evaluateMany as Row[]) {
        for (const e of row.flags) {
          const entry = byFlag.get(e.name) ?? { name: e.name, projectId: e.project ?? "", environments: {} };
          byFlag.set(e.name, entry);
          const { hasUnsatisfiedDependency: _, ...feature } = unleashFeature(e, row.environment);
          const inEnvironment = entry.environments[row.environment] ?? [];
          entry.environments[row.environment] = inEnvironment;
          inEnvironment.push({
            ...feature,
            environment: row.environment,
            context: flatContext(row.context),
          });
        }
      }
      return {
        input: { environments: body.environments, projects: body.projects ?? "*", context: contextOf(body) },
        features: [...byFlag.values()],
      };
    },
    schemas: {
      body: z.object({
        environments: z.array(z.string()).min(1),
        projects: projectsSchema,
        context: sdkContextSchema,
      }),
      response: z.object({
        input: playgroundInputSchema.extend({ environments: z.array(z.string()) }),
        features: z.array(
          z.object({
            name: z.string(),
            projectId: z.string(),
            environments: z.record(
              z.string(),
              z.array(
                playgroundFeatureSchema
                  .omit({ hasUnsatisfiedDependency: true })
                  .extend({ environment: z.string(), context: z.record(z.string(), z.string()) }),
              ),
            ),
          }),
        ),
      }),
    },
    errors: [400, 404],
  },
]);
