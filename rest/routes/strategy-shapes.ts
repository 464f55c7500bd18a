import { z } from "zod";
import { CONSTRAINT_OPERATORS } from "../../src/modules/feature-environments/strategy.types.ts";
import { ValidationError } from "../../src/shared/errors.ts";
import {
  EnvironmentVariantFields,
  FeatureEnvironmentFields,
  FeatureFields,
  StrategyFields,
} from "../fragments.ts";
import { resultSchema } from "../result-schema.ts";
import { isRecord } from "../shape.ts";

/**
 * Spec 2.2 / 2.3 / 2.4 / 2.5 / 2.6 shapes of the strategy routes, for the OpenAPI document: the
 * bodies Unleash takes, and (from the GraphQL fragments) the answers.
 */
export const constraintSchema = z.object({
  contextName: z.string(),
  operator: z.enum(CONSTRAINT_OPERATORS),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(z.string()).optional(),
  value: z.string().nullish(),
});

/** A constraint in a request body: Unleash's constraintSchema refuses other fields (400). */
export const constraintBodySchema = z.strictObject(constraintSchema.shape);

const payloadSchema = z.object({ type: z.enum(["json", "csv", "string", "number"]), value: z.string() });

export const strategyVariantSchema = z.object({
  name: z.string(),
  weight: z.number().int().max(1000),
  weightType: z.enum(["variable", "fix"]),
  stickiness: z.string(),
  payload: payloadSchema.nullish(),
});

export const environmentVariantSchema = z.object({
  name: z.string(),
  weight: z.number().max(1000),
  weightType: z.enum(["variable", "fix"]).nullish(),
  stickiness: z.string().nullish(),
  payload: payloadSchema.nullish(),
  overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
});

/** A variant in a request body: Unleash's variantSchema refuses other fields, in its payload and overrides too. */
export const environmentVariantBodySchema = z.strictObject({
  ...environmentVariantSchema.shape,
  payload: z.strictObject(payloadSchema.shape).nullish(),
  overrides: z.array(z.strictObject({ contextName: z.string(), values: z.array(z.string()) })).optional(),
});

/** A strategy's parameters: GraphQL's JSON, each a string (Unleash's parametersSchema). */
const parametersSchema = z.record(z.string(), z.string());

/** Spec 2.6 Strategy, as the routes answer it. */
export const strategySchema = resultSchema(StrategyFields, { parameters: parametersSchema });

/** Spec 2.5 feature-environment variant, as the routes answer it. */
export const variantSchema = resultSchema(EnvironmentVariantFields);

export const strategyBodySchema = z.object({
  name: z.string(),
  title: z.string().nullable().optional(),
  disabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  constraints: z.array(constraintBodySchema).optional(),
  variants: z
    .array(strategyVariantSchema.partial({ weight: true, weightType: true, stickiness: true }))
    .optional(),
  segments: z.array(z.number().int()).optional(),
});

/** A strategy update: Unleash's strategyVariantSchema refuses other fields of its variants too. */
export const strategyUpdateBodySchema = strategyBodySchema.extend({
  variants: z
    .array(
      z.strictObject(
        strategyVariantSchema.partial({ weight: true, weightType: true, stickiness: true }).shape,
      ),
    )
    .optional(),
});

/** Spec 2.7 Feature environment, as the routes answer it. */
export const featureEnvironmentSchema = resultSchema(FeatureEnvironmentFields, {
  "strategies.parameters": parametersSchema,
});

/** Spec 2.8 Feature, as the routes answer it. */
export const featureSchema = resultSchema(FeatureFields, {
  "environments.strategies.parameters": parametersSchema,
  "strategies.parameters": parametersSchema,
});

/** An RFC 6902 JSON Patch document. */
export const patchesSchema = z.array(
  z.object({
    op: z.enum(["add", "remove", "replace", "move", "copy", "test"]),
    path: z.string(),
    from: z.string().optional(),
    value: z.unknown().optional(),
  }),
);

/** Path parameters locating a flag in one environment, as GraphQL arguments. */
export const TARGET = {
  project: "path.projectId",
  feature: "path.featureName",
  environment: "path.environment",
} as const;

/** Keeps the listed keys of a JSON object (Unleash bodies carry read-only extras such as `id`). */
export function pick(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]]));
}

export function pickList(value: unknown, keys: readonly string[]): unknown {
  return Array.isArray(value) ? value.map((item) => pick(item, keys)) : value;
}

export const CONSTRAINT_KEYS = ["contextName", "operator", "caseInsensitive", "inverted", "values", "value"];
const PAYLOAD_KEYS = ["type", "value"];
const VARIANT_KEYS = ["name", "weight", "weightType", "stickiness", "payload"];

/** A REST variant as the GraphQL input (payload and overrides narrowed too). */
export function variantInput(value: unknown, withOverrides: boolean): unknown {
  const variant = pick(value, withOverrides ? [...VARIANT_KEYS, "overrides"] : VARIANT_KEYS);
  if (!variant || typeof variant !== "object") return variant;
  // A list too: its items become fields, which GraphQL refuses by name.
  const v: Record<string, unknown> = { ...variant };
  return {
    ...v,
    ...(v.payload ? { payload: pick(v.payload, PAYLOAD_KEYS) } : {}),
    ...(v.overrides ? { overrides: pickList(v.overrides, ["contextName", "values"]) } : {}),
  };
}

/** A REST strategy body as the GraphQL StrategyInput. */
export function strategyInput(body: unknown): unknown {
  const s = pick(body ?? {}, [
    "name",
    "title",
    "disabled",
    "sortOrder",
    "parameters",
    "constraints",
    "variants",
    "segments",
  ]);
  if (!isRecord(s)) throw new ValidationError("The body must be a strategy object.");
  const strategy = s;
  return {
    ...strategy,
    ...(strategy.constraints ? { constraints: pickList(strategy.constraints, CONSTRAINT_KEYS) } : {}),
    ...(Array.isArray(strategy.variants)
      ? { variants: strategy.variants.map((v) => variantInput(v, false)) }
      : {}),
  };
}
