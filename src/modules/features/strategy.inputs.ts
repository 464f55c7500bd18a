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

export type EnvironmentVariant = {
  name: string;
  weight: number;
  weightType?: "variable" | "fix";
  stickiness?: string;
  payload?: { type: string; value: string };
  overrides?: { contextName: string; values: string[] }[];
};
