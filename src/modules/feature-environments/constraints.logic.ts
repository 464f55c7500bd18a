import semver from "semver";
import { LimitExceededError, ValidationError } from "../../shared/errors.ts";
import { type ConstraintInput, constraintSchema } from "./strategy.inputs.ts";
import { type Constraint, LIST_OPERATORS, TEXT_OPERATORS } from "./strategy.types.ts";

const NUMERIC = new Set(["NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE"]);
const DATES = new Set(["DATE_AFTER", "DATE_BEFORE"]);
const SEMVERS = new Set(["SEMVER_EQ", "SEMVER_GT", "SEMVER_LT"]);

const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Checks one constraint against its operator and returns the stored shape: multi-value
 * operators keep `values` (a lone `value` given to a STR_* operator becomes a one-item list),
 * single-value ones keep a parsed-valid `value`. `path` prefixes error paths.
 */
export function normalizeConstraint(input: ConstraintInput, path: string): Constraint {
  const parsed = constraintSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail([path, ...(issue?.path ?? [])].join("."), issue?.message ?? "invalid constraint");
  }
  const c = parsed.data;
  const base = {
    contextName: c.contextName,
    operator: c.operator,
    caseInsensitive: c.caseInsensitive ?? false,
    inverted: c.inverted ?? false,
  };
  if (LIST_OPERATORS.has(c.operator)) {
    const values = c.values?.length ? c.values : TEXT_OPERATORS.has(c.operator) && c.value ? [c.value] : [];
    if (values.length === 0) fail(`${path}.values`, `${c.operator} needs at least one value in "values"`);
    return { ...base, values };
  }
  const value = c.value ?? (c.values?.length === 1 ? c.values[0] : undefined);
  if (value === undefined || value === "") fail(`${path}.value`, `${c.operator} needs a single "value"`);
  checkSingleValue(c.operator, value, `${path}.value`);
  return { ...base, values: [], value };
}

function checkSingleValue(operator: string, value: string, path: string) {
  if (NUMERIC.has(operator) && !(NUMBER.test(value.trim()) && Number.isFinite(Number(value)))) {
    fail(path, `${operator} needs a number; "${value}" is not one`);
  }
  if (DATES.has(operator) && !(RFC_3339.test(value) && !Number.isNaN(Date.parse(value)))) {
    fail(path, `${operator} needs an RFC 3339 date-time; "${value}" is not one`);
  }
  if (SEMVERS.has(operator) && (value.startsWith("v") || semver.valid(value) === null)) {
    fail(path, `${operator} needs a semantic version such as 1.2.3; "${value}" is not one`);
  }
}

function fail(path: string, message: string): never {
  throw new ValidationError(`${path}: ${message}`, [{ path, message: `${path}: ${message}` }]);
}

/**
 * Normalizes a list of constraints and enforces the `constraints` and `constraintValues`
 * limits with Unleash's grandfathering: a list already over a limit may be saved again as
 * long as it does not grow (reference-behaviours §12).
 */
export function normalizeConstraints(
  inputs: ConstraintInput[],
  existing: Constraint[],
  limits: { constraints: number; constraintValues: number },
  path = "constraints",
): Constraint[] {
  const constraints = inputs.map((c, i) => normalizeConstraint(c, `${path}.${i}`));
  if (constraints.length > limits.constraints && constraints.length > existing.length) {
    throw new LimitExceededError("constraints", limits.constraints);
  }
  const sameLength = constraints.length === existing.length;
  const overLimit = constraints.find((c, i) => {
    const count = c.values?.length ?? 0;
    const before = sameLength ? (existing[i]?.values?.length ?? 0) : 0;
    return count > limits.constraintValues && !(sameLength && before >= count);
  });
  if (overLimit) {
    throw new LimitExceededError(`constraint values for ${overLimit.contextName}`, limits.constraintValues);
  }
  return constraints;
}

/**
 * Every value of a constraint on a field with legal values (`legal`: field name to its legal
 * values, for the fields that have some) must be one of them, as in Unleash.
 */
export function assertLegalValues(
  constraints: Constraint[],
  legal: ReadonlyMap<string, string[]>,
  path: string,
) {
  constraints.forEach((c, i) => {
    const allowed = legal.get(c.contextName);
    if (!allowed) return;
    const given = LIST_OPERATORS.has(c.operator) ? (c.values ?? []) : [c.value ?? ""];
    const wrong = given.find((v) => !allowed.includes(v));
    if (wrong !== undefined) {
      fail(`${path}.${i}`, `"${wrong}" is not specified as a legal value on context field ${c.contextName}`);
    }
  });
}
