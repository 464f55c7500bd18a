import type { z } from "zod";
import type { environmentVariantsPayload, StrategyContentPayload } from "../../events/payloads.ts";

/** The 15 constraint operators of spec 2.2. */
export const CONSTRAINT_OPERATORS = [
  "NOT_IN",
  "IN",
  "STR_ENDS_WITH",
  "STR_STARTS_WITH",
  "STR_CONTAINS",
  "NUM_EQ",
  "NUM_GT",
  "NUM_GTE",
  "NUM_LT",
  "NUM_LTE",
  "DATE_AFTER",
  "DATE_BEFORE",
  "SEMVER_EQ",
  "SEMVER_GT",
  "SEMVER_LT",
] as const;

/** Operators that compare against a list (`values`), as in Unleash; the others take one `value`. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set([
  "IN",
  "NOT_IN",
  "STR_ENDS_WITH",
  "STR_STARTS_WITH",
  "STR_CONTAINS",
]);

/** Operators on text, the ones `caseInsensitive` applies to (IN and NOT_IN compare exactly). */
export const TEXT_OPERATORS: ReadonlySet<string> = new Set([
  "STR_ENDS_WITH",
  "STR_STARTS_WITH",
  "STR_CONTAINS",
]);

/**
 * Shapes of the JSON columns of strategies and variants (validated at write time): the event
 * catalogue's payload shapes, which the flag read model (flag-record.logic.ts) is made of, so
 * a strategy has one definition.
 */
export type StrategyContent = StrategyContentPayload;
export type Constraint = StrategyContent["constraints"][number];
export type StrategyVariant = StrategyContent["variants"][number];
export type EnvironmentVariant = z.infer<typeof environmentVariantsPayload>["variants"][number];
