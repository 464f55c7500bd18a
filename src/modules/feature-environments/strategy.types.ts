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
