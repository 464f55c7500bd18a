import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { moveEnvironmentsLastSeen } from "../feature-environments/feature-environment.write.ts";
import { hourOf, MAX_COUNT, saturated } from "./evaluation-metrics.logic.ts";

export type EvaluationCounts = {
  featureName: string;
  environment: string;
  yes: number;
  no: number;
  /** When the SDK evaluated (its bucket's time); the hour bucket is derived from it. */
  at: Date;
  /** When the counts arrived, for `lastSeenAt` (default `at`). */
  seenAt?: Date;
  /**
   * Only counted when the flag belongs to one of these projects (the SDK token's scope);
   * absent or containing `*` means any project.
   */
  projects?: readonly string[];
};

export type EnteredStage = { featureName: string; stage: string };

const iso = (d: Date) => d.toISOString();

type FlagEnvironmentRow = {
  featureName: string;
  environmentName: string;
  projectId: string;
  type: string;
  enabled: boolean;
};

/**
 * The lifecycle hook for evaluation metrics (reference §7.2) for one count; see
 * recordEvaluationMetricsBatch. Returns the stages newly entered.
 */
export async function recordEvaluationMetrics(w: Write, counts: EvaluationCounts): Promise<string[]> {
  const { entered } = await recordEvaluationMetricsBatch(w, [counts]);
  return entered.map((e) => e.stage);
}

/**
 * The lifecycle hook for evaluation metrics (reference §7.2), set-based so a batch of SDK
 * reports costs a handful of statements: adds the counts to each flag's hourly bucket, moves
 * `lastSeenAt` forward per environment and per flag, and enters `pre-live` on the first
 * metrics from any environment and `live` on metrics from a production environment where the
 * flag is on. Unknown or archived flags, unknown environments and flags outside a count's
 * `projects` are ignored (SDKs report what they were asked about). Records no audit event
 * (metrics are not changes). Returns the counts that were taken and the stages newly entered.
 */
export async function recordEvaluationMetricsBatch<C extends EvaluationCounts>(
  w: Write,
  counts: readonly C[],
): Promise<{ accepted: C[]; entered: EnteredStage[] }> {
  if (counts.length === 0) return { accepted: [], entered: [] };
  const known = await knownFlagEnvironments(w, counts);
  const accepted = counts.filter((c) => {
    const state = known.get(pairKey(c.featureName, c.environment));
    return state !== undefined && inScope(state.projectId, c.projects);
  });
  if (accepted.length === 0) return { accepted, entered: [] };
  await addHourlyCounts(w, accepted);
  await moveLastSeen(w, accepted);
  const entered = await enterStages(w, accepted, known);
  return { accepted, entered };
}

const pairKey = (featureName: string, environment: string) => `${featureName}\u0000${environment}`;

function inScope(projectId: string, projects: readonly string[] | undefined): boolean {
  return !projects || projects.includes("*") || projects.includes(projectId);
}

/** Non-archived flags configured in the environments the counts name, with what §7.2 needs. */
async function knownFlagEnvironments(w: Write, counts: readonly EvaluationCounts[]) {
  const pairs = new Map(counts.map((c) => [pairKey(c.featureName, c.environment), c]));
  const names = [...pairs.values()].map((c) => c.featureName);
  const environments = [...pairs.values()].map((c) => c.environment);
  const rows = await sqlOf(w.tx).query<FlagEnvironmentRow>(Prisma.sql`
    SELECT fe."featureName", fe."environmentName", f."projectId", e.type, fe.enabled
    FROM unnest(${names}::text[], ${environments}::text[]) AS p(f, e)
    JOIN "FeatureEnvironment" fe ON fe."featureName" = p.f AND fe."environmentName" = p.e
    JOIN "Feature" f ON f.name = p.f AND f."archivedAt" IS NULL
    JOIN "Environment" e ON e.name = p.e`);
  return new Map(rows.map((r) => [pairKey(r.featureName, r.environmentName), r]));
}

/** One upsert for the batch; rows sorted so concurrent batches lock in the same order. */
async function addHourlyCounts(w: Write, counts: readonly EvaluationCounts[]) {
  const sums = new Map<string, { f: string; e: string; hour: string; yes: number; no: number }>();
  for (const c of counts) {
    const hour = iso(hourOf(c.at));
    const key = `${pairKey(c.featureName, c.environment)}\u0000${hour}`;
    const sum = sums.get(key) ?? { f: c.featureName, e: c.environment, hour, yes: 0, no: 0 };
    sum.yes = saturated(sum.yes + c.yes);
    sum.no = saturated(sum.no + c.no);
    sums.set(key, sum);
  }
  const rows = [...sums.values()];
  await sqlOf(w.tx).execute(Prisma.sql`
    INSERT INTO "FeatureMetricsHourly" AS m ("featureName", "environmentName", hour, yes, no)
    SELECT * FROM unnest(${rows.map((r) => r.f)}::text[], ${rows.map((r) => r.e)}::text[],
      ${rows.map((r) => r.hour)}::timestamp(3)[], ${rows.map((r) => r.yes)}::int[], ${rows.map((r) => r.no)}::int[])
    ORDER BY 1, 2, 3
    ON CONFLICT ("featureName", "environmentName", hour) DO UPDATE SET
      yes = LEAST(m.yes::bigint + EXCLUDED.yes, ${MAX_COUNT})::int,
      no = LEAST(m.no::bigint + EXCLUDED.no, ${MAX_COUNT})::int`);
}

/** `lastSeenAt` only ever moves forward, per environment and per flag. */
async function moveLastSeen(w: Write, counts: readonly EvaluationCounts[]) {
  const perPair = new Map<string, { f: string; e: string; seen: number }>();
  const perFlag = new Map<string, number>();
  for (const c of counts) {
    const seen = (c.seenAt ?? c.at).getTime();
    const key = pairKey(c.featureName, c.environment);
    if ((perPair.get(key)?.seen ?? 0) < seen) perPair.set(key, { f: c.featureName, e: c.environment, seen });
    if ((perFlag.get(c.featureName) ?? 0) < seen) perFlag.set(c.featureName, seen);
  }
  const pairs = [...perPair.values()].sort((a, b) => (a.f + a.e < b.f + b.e ? -1 : 1));
  await moveEnvironmentsLastSeen(
    w.tx,
    pairs.map((p) => ({ featureName: p.f, environment: p.e, seenAt: iso(new Date(p.seen)) })),
  );
  const flags = [...perFlag.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  await sqlOf(w.tx).execute(Prisma.sql`
    UPDATE "Feature" f SET "lastSeenAt" = t.seen
    FROM unnest(${flags.map(([f]) => f)}::text[], ${flags.map(([, s]) => iso(new Date(s)))}::timestamp(3)[]) AS t(name, seen)
    WHERE f.name = t.name AND (f."lastSeenAt" IS NULL OR f."lastSeenAt" < t.seen)`);
}

/**
 * `pre-live` for every flag with metrics, `live` for those reported from a production
 * environment where they are on; each stage is entered once (existing rows are kept).
 */
async function enterStages(
  w: Write,
  counts: readonly EvaluationCounts[],
  known: Map<string, FlagEnvironmentRow>,
): Promise<EnteredStage[]> {
  const stages = new Map<string, string[]>();
  for (const c of counts) {
    const state = known.get(pairKey(c.featureName, c.environment)) as FlagEnvironmentRow;
    const wanted = stages.get(c.featureName) ?? ["pre-live"];
    if (state.type === "production" && state.enabled && !wanted.includes("live")) wanted.push("live");
    stages.set(c.featureName, wanted);
  }
  // Entering both at once stamps `live` 1 ms later, so "the latest stage" is well defined.
  const rows = [...stages.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .flatMap(([f, list]) => list.map((stage, i) => ({ f, stage, at: iso(new Date(w.now.getTime() + i)) })));
  return sqlOf(w.tx).query<EnteredStage>(Prisma.sql`
    INSERT INTO "FeatureLifecycle" ("featureName", stage, "createdAt")
    SELECT * FROM unnest(${rows.map((r) => r.f)}::text[], ${rows.map((r) => r.stage)}::text[],
      ${rows.map((r) => r.at)}::timestamp(3)[])
    ON CONFLICT ("featureName", stage) DO NOTHING
    RETURNING "featureName", stage`);
}
