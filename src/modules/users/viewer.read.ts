import type { Db } from "../../db/database.ts";

/** Unleash caps the dashboard's flag list at 100 (reference-behaviours §12). */
const MAX_FLAGS = 100;

/** Ids of the active projects a user holds a role in, or has favourited. */
export async function myProjectIds(db: Db, userId: number | null): Promise<string[]> {
  if (userId === null) return [];
  const projects = await db.project.findMany({
    where: {
      archivedAt: null,
      OR: [{ members: { some: { userId } } }, { favorites: { some: { userId } } }],
    },
    select: { id: true },
    orderBy: { name: "asc" },
  });
  return projects.map((p) => p.id);
}

/** Names of the active flags a user created or favourited, newest first (at most 100). */
export async function myFlagNames(db: Db, userId: number | null): Promise<string[]> {
  if (userId === null) return [];
  const flags = await db.feature.findMany({
    where: {
      archivedAt: null,
      OR: [{ createdByUserId: userId }, { favorites: { some: { userId } } }],
    },
    select: { name: true },
    orderBy: [{ createdAt: "desc" }, { name: "asc" }],
    take: MAX_FLAGS,
  });
  return flags.map((f) => f.name);
}
