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

/**
 * Shapes of the JSON columns of strategies and variants (validated at write time): the event
 * catalogue's payload shapes, which the flag read model (flag-record.logic.ts) is made of, so
 * a strategy has one definition.
 */
export type StrategyContent = StrategyContentPayload;
export type Constraint = StrategyContent["constraints"][number];
export type StrategyVariant = StrategyContent["variants"][number];
export type EnvironmentVariant = z.infer<typeof environmentVariantsPayload>["variants"][number];
