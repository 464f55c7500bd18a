import type { Db } from "../../db/database.ts";
import { existingProject, healthCounts } from "../project-insights/project-insights.read.ts";
import { avatarUrl, imageOf } from "../users/avatars.logic.ts";

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
    db.event.findFirst({
      where: { project: projectId, type: "feature-environment-enabled" },
      select: { id: true },
    }),
    db.feature.findFirst({
      where: { projectId },
      orderBy: [{ createdAt: "asc" }, { name: "asc" }],
      select: { name: true },
    }),
  ]);
  if (metrics && enabled) return { status: "onboarded", feature: null };
  if (metrics) return { status: "sdk-connected", feature: null };
  if (firstFlag) return { status: "first-flag-created", feature: firstFlag.name };
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
    db.event.findMany({
      where: { project: projectId },
      orderBy: { id: "desc" },
      take: LATEST_EVENTS,
      select: { id: true, summary: true, createdBy: true, createdByUserId: true, createdAt: true },
    }),
    db.user.findMany({
      where: { deletedAt: null, projectMemberships: { some: { projectId, role: { name: "Owner" } } } },
      select: { id: true, name: true, username: true, email: true, imageUrl: true },
      orderBy: { id: "asc" },
    }),
    userId === null
      ? Promise.resolve([])
      : db.role.findMany({
          where: { members: { some: { projectId, userId } } },
          select: { id: true, name: true, type: true },
          orderBy: { id: "asc" },
        }),
    healthCounts(db, projectId),
    onboardingStatus(db, projectId),
  ]);
  const creatorIds = [...new Set(events.map((e) => e.createdByUserId).filter((id) => id !== null && id > 0))];
  const creators = await db.user.findMany({
    where: { id: { in: creatorIds as number[] } },
    select: { id: true, imageUrl: true },
  });
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
