import DataLoader from "dataloader";
import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { FlagFact } from "../../shared/flag-facts.ts";

/** The flags among `names` that `userId` favourited (none for null). */
export function favoriteFeaturesSql(userId: number | null, names: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT "featureName" FROM "FavoriteFeature"
    WHERE "userId" = ${userId} AND "featureName" = ANY(${names})`;
}

/** Whether the acting user favourited each flag (a fact of the flag-facts loader). */
export function favoriteFeatureFact(actorId: number | null): FlagFact<boolean, { featureName: string }> {
  return {
    sql: (names) => favoriteFeaturesSql(actorId, names),
    valuesOf: (names, rows) => {
      const favourites = new Set(rows.map((r) => r.featureName));
      return names.map((name) => favourites.has(name));
    },
  };
}

/** The request's loaders of favourites of the acting user (`actorId`, null: none). */
export function favoritesLoaders(db: Db, actorId: number | null) {
  return {
    isFavoriteProjectOfActor: new DataLoader<string, boolean>(async (ids) => {
      if (actorId === null) return ids.map(() => false);
      const rows = await db.favoriteProject.findMany({
        where: { userId: actorId, projectId: { in: [...ids] } },
        select: { projectId: true },
      });
      const favourites = new Set(rows.map((r) => r.projectId));
      return ids.map((id) => favourites.has(id));
    }),
  };
}
