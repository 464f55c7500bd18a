import DataLoader from "dataloader";
import type { Db } from "./db/database.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { Principal } from "./modules/access/principal.types.ts";
import { toUserSummary, type UserSummary } from "./modules/users/user-summary.logic.ts";
import { actorOf } from "./shared/actor.ts";

/**
 * Per-request batch loaders for fields Prisma's query planning cannot fold into the parent
 * query (per-user data, aggregates over events). Created fresh for every request and for
 * every subscription event, so nothing is cached across callers.
 */
export function createLoaders(db: Db, principal: Principal | null) {
  // Favourites of the acting user: an admin API token acts as the shared admin-token user (-42).
  const actorId = actorOf(principal).userId;
  return {
    isFavoriteFeatureOfActor: new DataLoader<string, boolean>(async (names) => {
      const rows = await db.$queryRaw<{ featureName: string }[]>(
        favoriteFeaturesSql(actorId, Prisma.sql`${[...names]}::text[]`),
      );
      const favourites = new Set(rows.map((r) => r.featureName));
      return names.map((n) => favourites.has(n));
    }),
    isFavoriteProjectOfActor: new DataLoader<string, boolean>(async (ids) => {
      if (actorId === null) return ids.map(() => false);
      const rows = await db.favoriteProject.findMany({
        where: { userId: actorId, projectId: { in: [...ids] } },
        select: { projectId: true },
      });
      const favourites = new Set(rows.map((r) => r.projectId));
      return ids.map((id) => favourites.has(id));
    }),
    // One statement: each user who recorded an event on the flag, by their latest event first.
    featureCollaborators: new DataLoader<string, UserSummary[]>(async (names) => {
      const rows = await db.$queryRaw<(CollaboratorRow & { featureName: string })[]>`
        SELECT e."featureName", u.id, u.name, u.username, u.email, u."imageUrl"
          FROM "Event" e JOIN "User" u ON u.id = e."createdByUserId"
         WHERE e."featureName" = ANY(${[...names]}::text[]) AND e."createdByUserId" > 0
         GROUP BY e."featureName", u.id
         ORDER BY MAX(e.id) DESC`;
      return names.map((name) => rows.filter((r) => r.featureName === name).map(toUserSummary));
    }),
  };
}

type CollaboratorRow = NonNullable<Parameters<typeof toUserSummary>[0]>;

export type Loaders = ReturnType<typeof createLoaders>;

/**
 * The flags among `names` (a text[] expression) that `userId` favourited (none for null). Raw SQL: search pages
 * ask it for 25-100 flags, and a Prisma model query costs several times the statement's CPU.
 */
export function favoriteFeaturesSql(userId: number | null, names: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT "featureName" FROM "FavoriteFeature"
    WHERE "userId" = ${userId} AND "featureName" = ANY(${names})`;
}
