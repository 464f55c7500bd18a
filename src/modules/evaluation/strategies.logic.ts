import type { EvaluationContext } from "./client-features.types.ts";
import { ipInRanges, parseRanges } from "./constraints.logic.ts";
import { contextValue } from "./context-value.logic.ts";
import { strategyBucket } from "./hashing.logic.ts";

/** What a strategy's own rule decided (constraints and segments aside). */
export type StrategyRuleResult = {
  enabled: boolean;
  /** For percentage rollouts: the user's bucket (1..100) against the rollout. */
  rollout?: { stickiness: string; bucket: number | null; percentage: number };
  /** Why it could not decide for this context (e.g. no userId). */
  missing?: string;
};

export type StrategyOptions = {
  /** Random stickiness values ("1".."10000"), replaceable for tests. */
  random: () => string;
  /** The application hostname `applicationHostname` compares with (lower case). */
  hostname: string;
};

type Rule = (
  parameters: Record<string, string>,
  context: EvaluationContext,
  options: StrategyOptions,
) => StrategyRuleResult;

const list = (value: string | undefined) => (value ? value.split(/\s*,\s*/) : []);

function percentageOf(
  id: string | undefined,
  groupId: string,
  percentage: number,
  stickiness: string,
): StrategyRuleResult {
  if (!id) return { enabled: false, missing: stickiness, rollout: { stickiness, bucket: null, percentage } };
  const bucket = strategyBucket(id, groupId);
  return { enabled: percentage > 0 && bucket <= percentage, rollout: { stickiness, bucket, percentage } };
}

const flexibleRollout: Rule = (p, ctx, options) => {
  const stickiness = p.stickiness || "default";
  const groupId = p.groupId || String(ctx.featureToggle ?? "");
  const id =
    stickiness === "default"
      ? (ctx.userId as string) || (ctx.sessionId as string) || options.random()
      : stickiness === "random"
        ? options.random()
        : contextValue(ctx, stickiness);
  return percentageOf(id, groupId, Number(p.rollout), stickiness);
};

const RULES: Record<string, Rule> = {
  default: () => ({ enabled: true }),
  flexibleRollout,
  userWithId: (p, ctx) => ({
    enabled: typeof ctx.userId === "string" && list(p.userIds).includes(ctx.userId),
  }),
  gradualRolloutUserId: (p, ctx) =>
    percentageOf(ctx.userId as string | undefined, p.groupId || "", Number(p.percentage), "userId"),
  gradualRolloutSessionId: (p, ctx) =>
    percentageOf(ctx.sessionId as string | undefined, p.groupId || "", Number(p.percentage), "sessionId"),
  gradualRolloutRandom: (p, _ctx, options) => {
    const percentage = Number(p.percentage);
    const draw = (Number(options.random()) % 100) + 1;
    return { enabled: percentage >= draw, rollout: { stickiness: "random", bucket: draw, percentage } };
  },
  remoteAddress: (p, ctx) => {
    const ranges = list(p.IPs);
    const ip = ctx.remoteAddress as string | undefined;
    if (!ip) return { enabled: false, missing: "remoteAddress" };
    return { enabled: ranges.includes(ip) || ipInRanges(ip, parseRanges(ranges)) };
  },
  applicationHostname: (p, _ctx, options) => ({
    enabled: list(p.hostNames?.toLowerCase()).includes(options.hostname),
  }),
};

/** Whether the engine knows a strategy; unknown ones evaluate to false, as in the SDKs. */
export const isKnownStrategy = (name: string) => Object.hasOwn(RULES, name);

export function runStrategyRule(
  name: string,
  parameters: Record<string, string>,
  context: EvaluationContext,
  options: StrategyOptions,
): StrategyRuleResult {
  const rule = RULES[name];
  return rule ? rule(parameters, context, options) : { enabled: false, missing: `strategy ${name}` };
}
