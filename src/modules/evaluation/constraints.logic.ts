import { Address4, Address6 } from "ip-address";
import { RE2JS } from "re2js";
import semver from "semver";
import type { ClientConstraint, EvaluationContext } from "./client-features.types.ts";
import { contextValue } from "./context-value.logic.ts";

/** One constraint's verdict, as the playground shows it. */
export type ConstraintResult = {
  contextName: string;
  operator: string;
  values?: string[];
  value?: string;
  inverted: boolean;
  caseInsensitive: boolean;
  /** The context's value the operator saw (undefined: not in the context). */
  contextValue?: string;
  result: boolean;
};

/** A constraint prepared once per configuration: values parsed, regex compiled. */
export type CompiledConstraint = {
  source: ClientConstraint;
  matches(context: EvaluationContext): boolean;
};

type Matcher = (context: EvaluationContext) => boolean;

const cleanValues = (values: string[] | undefined) =>
  (values ?? []).filter((v) => typeof v === "string" && v !== "").map((v) => v.trim());

function inMatcher(c: ClientConstraint): Matcher {
  const values = new Set(cleanValues(c.values));
  return (ctx) => {
    const v = contextValue(ctx, c.contextName);
    return v !== undefined && values.has(v);
  };
}

function stringMatcher(c: ClientConstraint, test: (value: string, candidate: string) => boolean): Matcher {
  const fold = (s: string) => (c.caseInsensitive ? s.toLocaleLowerCase() : s);
  const values = cleanValues(c.values).map(fold);
  return (ctx) => {
    const v = contextValue(ctx, c.contextName);
    if (v === undefined) return false;
    const value = fold(v);
    return values.some((candidate) => test(value, candidate));
  };
}

function numberMatcher(c: ClientConstraint, compare: (a: number, b: number) => boolean): Matcher {
  const target = Number(c.value);
  return (ctx) => {
    const raw = contextValue(ctx, c.contextName);
    const v = Number(raw);
    if (raw === undefined || Number.isNaN(v) || Number.isNaN(target)) return false;
    return compare(v, target);
  };
}

function dateMatcher(c: ClientConstraint, after: boolean): Matcher {
  const target = new Date(c.value ?? "").getTime();
  return (ctx) => {
    const now = ctx.currentTime ? new Date(ctx.currentTime as string | Date).getTime() : Date.now();
    if (Number.isNaN(target) || Number.isNaN(now)) return false;
    return after ? now > target : now < target;
  };
}

/** Versions parsed lately: a context's version is compared with many flags' constraints. */
const parsedVersions = new Map<string, semver.SemVer | null>();
const MAX_PARSED_VERSIONS = 1_000;

/** A context's version as the SDKs accept it (strict semver, no leading "v"), or null. */
function parsedVersion(v: string): semver.SemVer | null {
  let parsed = parsedVersions.get(v);
  if (parsed === undefined) {
    if (parsedVersions.size >= MAX_PARSED_VERSIONS) parsedVersions.clear();
    parsed = v.startsWith("v") ? null : semver.parse(v);
    parsedVersions.set(v, parsed);
  }
  return parsed;
}

function semverMatcher(
  c: ClientConstraint,
  compare: (a: semver.SemVer, b: semver.SemVer) => boolean,
): Matcher {
  const target = semver.parse(c.value ?? "");
  if (target === null) return () => false;
  return (ctx) => {
    const v = contextValue(ctx, c.contextName);
    const version = v === undefined ? null : parsedVersion(v);
    return version !== null && compare(version, target);
  };
}

function regexMatcher(c: ClientConstraint): Matcher {
  let regex: RE2JS;
  try {
    // RE2 semantics (linear time): a configured pattern cannot stall the server.
    regex = RE2JS.compile(c.value ?? "", c.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return () => false;
  }
  return (ctx) => {
    const v = contextValue(ctx, c.contextName);
    return v !== undefined && regex.matcher(v).find();
  };
}

type Range = { kind: 4; address: Address4 } | { kind: 6; address: Address6 };

function parseRange(range: string): Range | null {
  if (Address4.isValid(range)) return { kind: 4, address: new Address4(range) };
  if (Address6.isValid(range)) return { kind: 6, address: new Address6(range) };
  return null;
}

/** Whether `ip` (an address) is one of `ranges` (addresses or CIDR ranges). */
export function ipInRanges(ip: string, ranges: Range[]): boolean {
  const kind = Address4.isValid(ip) ? 4 : Address6.isValid(ip) ? 6 : 0;
  if (kind === 0) return false;
  const address = kind === 4 ? new Address4(ip) : new Address6(ip);
  return ranges.some(
    (r) =>
      r.kind === kind &&
      (r.address.correctForm() === address.correctForm() ||
        (address as Address4).isInSubnet(r.address as Address4)),
  );
}

export function parseRanges(values: string[]): Range[] {
  return values.map(parseRange).filter((r): r is Range => r !== null);
}

function cidrMatcher(c: ClientConstraint): Matcher {
  const ranges = parseRanges(cleanValues(c.values));
  return (ctx) => {
    const v = contextValue(ctx, c.contextName);
    return v !== undefined && ipInRanges(v, ranges);
  };
}

const OPERATORS: Record<string, (c: ClientConstraint) => Matcher> = {
  IN: inMatcher,
  NOT_IN: (c) => {
    const isIn = inMatcher(c);
    return (ctx) => !isIn(ctx);
  },
  STR_STARTS_WITH: (c) => stringMatcher(c, (v, x) => v.startsWith(x)),
  STR_ENDS_WITH: (c) => stringMatcher(c, (v, x) => v.endsWith(x)),
  STR_CONTAINS: (c) => stringMatcher(c, (v, x) => v.includes(x)),
  NUM_EQ: (c) => numberMatcher(c, (a, b) => a === b),
  NUM_GT: (c) => numberMatcher(c, (a, b) => a > b),
  NUM_GTE: (c) => numberMatcher(c, (a, b) => a >= b),
  NUM_LT: (c) => numberMatcher(c, (a, b) => a < b),
  NUM_LTE: (c) => numberMatcher(c, (a, b) => a <= b),
  DATE_AFTER: (c) => dateMatcher(c, true),
  DATE_BEFORE: (c) => dateMatcher(c, false),
  SEMVER_EQ: (c) => semverMatcher(c, semver.eq),
  SEMVER_GT: (c) => semverMatcher(c, semver.gt),
  SEMVER_LT: (c) => semverMatcher(c, semver.lt),
  SEMVER_GTE: (c) => semverMatcher(c, semver.gte),
  SEMVER_LTE: (c) => semverMatcher(c, semver.lte),
  REGEX: regexMatcher,
  IN_CIDR: cidrMatcher,
};

/** Prepares a constraint; an unknown operator never matches (inverted or not, as the SDKs). */
export function compileConstraint(source: ClientConstraint): CompiledConstraint {
  const build = OPERATORS[source.operator];
  if (!build) return { source, matches: () => false };
  const test = build(source);
  const matches = source.inverted ? (ctx: EvaluationContext) => !test(ctx) : test;
  return { source, matches };
}

export function describeConstraint(
  c: CompiledConstraint,
  context: EvaluationContext,
  result: boolean,
): ConstraintResult {
  const s = c.source;
  return {
    contextName: s.contextName,
    operator: s.operator,
    ...(s.values ? { values: s.values } : {}),
    ...(s.value !== undefined ? { value: s.value } : {}),
    inverted: Boolean(s.inverted),
    caseInsensitive: Boolean(s.caseInsensitive),
    contextValue: contextValue(context, s.contextName),
    result,
  };
}
