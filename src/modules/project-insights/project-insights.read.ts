import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { found } from "../../shared/found.ts";
import { sqlOf } from "../../shared/sql.ts";
import { projectActivityByDay, projectEventCount } from "../events/event.read.ts";
import {
  archivedFlagCount,
  createdFlagCount,
  flagStalenessCounts,
  flagsPerLifecycleStage,
  flagsPerType,
  lifecycleStageDurations,
} from "../features/flag-statistics.read.ts";
import { projectById } from "../projects/project.read.ts";
import { segmentCount } from "../segments/segment.read.ts";
import { apiTokenCountOfProject } from "../tokens/api-tokens.read.ts";
import { creatorsOfActiveFlags, projectMemberIds } from "../users/user.read.ts";

const DAY_MS = 86_400_000;
/** Unleash's insight windows: the last 30 days ("current") and the 30 before ("past"). */
const WINDOW_DAYS = 30;

/** A project that exists (archived ones too), else NOT_FOUND. */
export async function existingProject(db: Db, projectId: string) {
  return found(await projectById(db, projectId), `project with id "${projectId}"`);
}

/**
 * Users who created the project's active flags, by name (name, else username, else email).
 * Vexil's pseudo-users (negative ids: admin API tokens, the system) are not creators, as in
 * Unleash, where they have no user row.
 */
export async function flagCreators(db: Db, projectId: string): Promise<{ id: number; name: string }[]> {
  await existingProject(db, projectId);
  const users = await creatorsOfActiveFlags(db, projectId);
  return users
    .map((u) => ({ id: u.id, name: u.name ?? u.username ?? u.email ?? "unknown" }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

export type LeadTime = { name: string; timeToProduction: number };

/**
 * DORA lead time: for each active flag of the project that was ever enabled in an environment
 * of type `production`, whole days from its creation to the first `feature-environment-enabled`
 * event there (Unleash counts whole days too). Flags never enabled in production are left out.
 */
export async function leadTimes(db: Db, projectId: string, createdSince?: Date): Promise<LeadTime[]> {
  const rows = await sqlOf(db).query<{ name: string; createdAt: Date; enabledAt: Date }>(Prisma.sql`
    SELECT f.name, f."createdAt", min(e."createdAt") AS "enabledAt"
    FROM "Feature" f
    JOIN "Event" e ON e."featureName" = f.name AND e.type = 'feature-environment-enabled'
    JOIN "Environment" env ON env.name = e.environment AND env.type = 'production'
    WHERE f."projectId" = ${projectId} AND f."archivedAt" IS NULL
      ${createdSince ? Prisma.sql`AND f."createdAt" >= ${createdSince}` : Prisma.empty}
    GROUP BY f.name, f."createdAt"
    ORDER BY f.name`);
  return rows.map((r) => ({
    name: r.name,
    timeToProduction: Math.max(0, Math.floor((r.enabledAt.getTime() - r.createdAt.getTime()) / DAY_MS)),
  }));
}

/** The mean of the lead times, or undefined when no flag reached production. */
export function averageLeadTime(times: LeadTime[]): number | undefined {
  if (times.length === 0) return undefined;
  return times.reduce((sum, t) => sum + t.timeToProduction, 0) / times.length;
}

/** The project's DORA lead-time metrics (Unleash's projectDoraMetricsSchema). */
export async function doraMetrics(db: Db, projectId: string) {
  await existingProject(db, projectId);
  const features = await leadTimes(db, projectId);
  return { projectAverage: averageLeadTime(features), features };
}

/**
 * Counts of the project's active flags by staleness, and health computed from them as Unleash
 * does: round(100 - stale% - potentially stale%), 100 with no flags; technical debt = 100 - health.
 */
export async function healthCounts(db: Db, projectId: string) {
  const { total, stale, potentiallyStale } = await flagStalenessCounts(db, projectId);
  const health = total === 0 ? 100 : Math.round(100 - (100 * (stale + potentiallyStale)) / total);
  return {
    total,
    stale,
    potentiallyStale,
    active: total - stale - potentiallyStale,
    health,
    technicalDebt: 100 - health,
  };
}

const STAGES = ["initial", "pre-live", "live", "completed"] as const;
type StageSummary = { averageDays: number | null; currentFlags: number };

/**
 * Project status (Unleash's projectStatusSchema): events per day over the last year, resource
 * counts, health, stale flags and the lifecycle summary. A stage's `averageDays` is the mean time
 * the project's flags spent in it before entering a later stage (null while none has left it).
 */
export async function projectStatus(db: Db, projectId: string, now = new Date()) {
  await existingProject(db, projectId);
  const yearAgo = new Date(now.getTime() - 365 * DAY_MS);
  const [activity, apiTokens, members, segments, counts, stages, durations, archived, archivedRecently] =
    await Promise.all([
      projectActivityByDay(db, projectId, yearAgo),
      apiTokenCountOfProject(db, projectId),
      projectMemberIds(db, projectId),
      segmentCount(db, projectId),
      healthCounts(db, projectId),
      flagsPerLifecycleStage(db, projectId),
      lifecycleStageDurations(db, projectId),
      archivedFlagCount(db, projectId),
      archivedFlagCount(db, projectId, { gte: new Date(now.getTime() - WINDOW_DAYS * DAY_MS) }),
    ]);
  const summary = (stage: (typeof STAGES)[number]): StageSummary => {
    const days = durations.find((d) => d.stage === stage)?.days;
    return {
      averageDays: days === undefined ? null : Math.round(days * 10) / 10,
      currentFlags: stages.find((s) => s.lifecycleStage === stage)?._count._all ?? 0,
    };
  };
  return {
    activityCountByDate: activity.map((a) => ({ date: a.date, count: Number(a.count) })),
    resources: { apiTokens, members: members.length, segments },
    health: counts.health,
    technicalDebt: counts.technicalDebt,
    staleFlags: counts.stale,
    lifecycle: {
      initial: summary("initial"),
      preLive: summary("pre-live"),
      live: summary("live"),
      completed: summary("completed"),
      archived: { currentFlags: archived, last30Days: archivedRecently },
    },
  };
}

/**
 * Project insights (Unleash's projectInsightsSchema): 30-day window statistics, lead time,
 * flag types, health and members. `members.change` counts members added in the last 30 days:
 * Vexil keeps no history of removals.
 */
export async function projectInsights(db: Db, projectId: string, now = new Date()) {
  await existingProject(db, projectId);
  const current = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
  const past = new Date(now.getTime() - 2 * WINDOW_DAYS * DAY_MS);
  const inCurrent = { gte: current };
  const inPast = { gte: past, lt: current };
  const [
    createdCurrent,
    createdPast,
    archivedCurrent,
    archivedPast,
    activityCurrent,
    activityPast,
    membersAdded,
    memberRows,
    types,
    counts,
    leadTime,
    recentLeadTimes,
  ] = await Promise.all([
    createdFlagCount(db, projectId, inCurrent),
    createdFlagCount(db, projectId, inPast),
    archivedFlagCount(db, projectId, inCurrent),
    archivedFlagCount(db, projectId, inPast),
    projectEventCount(db, projectId, inCurrent),
    projectEventCount(db, projectId, inPast),
    projectMemberIds(db, projectId, inCurrent),
    projectMemberIds(db, projectId),
    flagsPerType(db, projectId),
    healthCounts(db, projectId),
    leadTimes(db, projectId),
    leadTimes(db, projectId, current),
  ]);
  const rating = {
    activeCount: counts.active,
    potentiallyStaleCount: counts.potentiallyStale,
    staleCount: counts.stale,
  };
  return {
    stats: {
      avgTimeToProdCurrentWindow: averageLeadTime(recentLeadTimes) ?? 0,
      createdCurrentWindow: createdCurrent,
      createdPastWindow: createdPast,
      archivedCurrentWindow: archivedCurrent,
      archivedPastWindow: archivedPast,
      projectActivityCurrentWindow: activityCurrent,
      projectActivityPastWindow: activityPast,
      projectMembersAddedCurrentWindow: membersAdded.length,
    },
    leadTime: { projectAverage: averageLeadTime(leadTime), features: leadTime },
    featureTypeCounts: types
      .map((t) => ({ type: t.type, count: t._count._all }))
      .sort((a, b) => (a.type < b.type ? -1 : 1)),
    health: { rating: counts.health, ...rating },
    technicalDebt: { rating: counts.technicalDebt, ...rating },
    members: { currentMembers: memberRows.length, change: membersAdded.length },
  };
}
