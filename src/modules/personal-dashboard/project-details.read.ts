import type { Db } from "../../db/database.ts";
import { latestProjectEvents, projectHasEvent } from "../events/event.read.ts";
import { oldestFlagName } from "../features/feature.read.ts";
import { existingProject, healthCounts } from "../project-insights/project-insights.read.ts";
import { avatarUrl, imageOf } from "../users/avatars.logic.ts";
import { ownersOfProjects, projectRolesOf, userImages } from "../users/user.read.ts";

/** Unleash shows the 10 newest events of the project on the dashboard. */
const LATEST_EVENTS = 10;

export type Owner = { ownerType: string; name: string | null; imageUrl: string | null; email: string | null };

/**
 * Where the project stands in onboarding, as Unleash's personal dashboard: `onboarded` once an
 * SDK reported metrics for one of its flags and a flag was enabled somewhere, `sdk-connected`
 * with metrics only, `first-flag-created` (the oldest flag) with flags only, else `onboarding-started`.
 */
async function onboardingStatus(
  db: Db,
  projectId: string,
): Promise<{ status: string; feature: string | null }> {
  const [metrics, enabled, firstFlag] = await Promise.all([
    db.clientMetricsHourly.findFirst({ where: { feature: { projectId } }, select: { appName: true } }),
    projectHasEvent(db, projectId, "feature-environment-enabled"),
    oldestFlagName(db, projectId),
  ]);
  if (metrics && enabled) return { status: "onboarded", feature: null };
  if (metrics) return { status: "sdk-connected", feature: null };
  if (firstFlag !== null) return { status: "first-flag-created", feature: firstFlag };
  return { status: "onboarding-started", feature: null };
}

/**
 * One project on the caller's dashboard (Unleash's personalDashboardProjectDetailsSchema): its 10
 * newest events, onboarding status, owners (`system` when none), the caller's roles in it, and
 * health insights. NOT_FOUND when the project does not exist. Vexil keeps no health history,
 * so the trend windows (`avgHealthCurrentWindow`, `avgHealthPastWindow`) are null.
 */
export async function projectDetails(db: Db, publicUrl: string, projectId: string, userId: number | null) {
  await existingProject(db, projectId);
  const [events, owners, roles, counts, onboarding] = await Promise.all([
    latestProjectEvents(db, projectId, LATEST_EVENTS),
    ownersOfProjects(db, [projectId]),
    userId === null ? Promise.resolve([]) : projectRolesOf(db, projectId, userId),
    healthCounts(db, projectId),
    onboardingStatus(db, projectId),
  ]);
  const creatorIds = [...new Set(events.map((e) => e.createdByUserId).filter((id) => id !== null && id > 0))];
  const creators = await userImages(db, creatorIds as number[]);
  const imageById = new Map(creators.map((u) => [u.id, imageOf(publicUrl, u)]));
  return {
    latestEvents: events.map((e) => ({
      id: Number(e.id),
      summary: e.summary,
      createdBy: e.createdBy,
      createdByImageUrl:
        (e.createdByUserId !== null ? imageById.get(e.createdByUserId) : undefined) ??
        avatarUrl(publicUrl, e.createdByUserId ?? -1337),
      createdAt: e.createdAt,
    })),
    onboardingStatus: onboarding,
    owners:
      owners.length === 0
        ? [{ ownerType: "system", name: null, imageUrl: null, email: null }]
        : owners.map((o) => ({
            ownerType: "user",
            name: o.name ?? o.username ?? o.email ?? "unknown",
            imageUrl: imageOf(publicUrl, o),
            email: o.email,
          })),
    roles: roles.map((r) => ({ id: r.id, name: r.name, type: r.type === "project" ? "project" : "custom" })),
    insights: {
      avgHealthCurrentWindow: null,
      avgHealthPastWindow: null,
      totalFlags: counts.total,
      activeFlags: counts.active,
      staleFlags: counts.stale,
      potentiallyStaleFlags: counts.potentiallyStale,
      health: counts.health,
      technicalDebt: counts.technicalDebt,
    },
  };
}
