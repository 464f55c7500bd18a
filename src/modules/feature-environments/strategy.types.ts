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

/** The units variants' weights share (Unleash's 1000: a weight of 500 is half). */
export const TOTAL_WEIGHT = 1000;

/**
 * Each variant's weight as stored: `fix` weights are kept; the rest of TOTAL_WEIGHT is shared by
 * the `variable` ones, each floor(rest / count) and the first (rest % count), in order, one more,
 * so the total is exact. A rest below 0 counts as 0 (the write refuses such fix weights).
 */
export function sharedWeights(variants: readonly { weight: number; weightType: string }[]): number[] {
  const fixTotal = variants.filter((v) => v.weightType === "fix").reduce((sum, v) => sum + v.weight, 0);
  const variableCount = variants.filter((v) => v.weightType !== "fix").length;
  if (variableCount === 0) return variants.map((v) => v.weight);
  const rest = Math.max(0, TOTAL_WEIGHT - fixTotal);
  const share = Math.floor(rest / variableCount);
  let remainder = rest % variableCount;
  return variants.map((v) => {
    if (v.weightType === "fix") return v.weight;
    const extra = remainder > 0 ? 1 : 0;
    remainder -= extra;
    return share + extra;
  });
}

/** Shapes of the JSON columns of strategies and variants (validated at write time). */
export type Constraint = {
  contextName: string;
  operator: string;
  caseInsensitive?: boolean;
  inverted?: boolean;
  values?: string[];
  value?: string;
};

export type StrategyVariant = {
  name: string;
  weight: number;
  weightType: "variable" | "fix";
  stickiness: string;
  payload?: { type: string; value: string };
};

/** A strategy's content without its id: a project's default strategy, a strategy in the history. */
export type StrategyContent = {
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  parameters: Record<string, string>;
  constraints: Constraint[];
  variants: StrategyVariant[];
  segments: number[];
};

export type EnvironmentVariant = {
  name: string;
  weight: number;
  weightType?: "variable" | "fix";
  stickiness?: string;
  payload?: { type: string; value: string };
  overrides?: { contextName: string; values: string[] }[];
};
