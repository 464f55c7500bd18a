import type { Db, Tx } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";

/** The dependency links whose parent or child is one of `names`. */
export function dependencyLinksOf(tx: Db | Tx, names: string[]) {
  // Raw: this check runs before every archive dialog, and Prisma's runtime costs a model query
  // about 1 ms more CPU than the statement itself (`npm run bench:request-path`).
  return sqlOf(tx).query<{ parentName: string; childName: string }>`
    SELECT "parentName", "childName" FROM "FeatureDependency"
    WHERE "parentName" = ANY(${names}::text[]) OR "childName" = ANY(${names}::text[])`;
}

/** Whether a flag of `names` is the parent of a child that is neither archived nor among them. */
export async function hasActiveChildOutside(tx: Tx, names: string[]): Promise<boolean> {
  const activeChildren = await tx.featureDependency.findMany({
    where: { parentName: { in: names }, childName: { notIn: names }, child: { archivedAt: null } },
    select: { parentName: true },
  });
  return activeChildren.length > 0;
}

/** The dependency links whose child is one of `names`. */
export function parentLinksOf(tx: Db | Tx, names: string[]) {
  return tx.featureDependency.findMany({ where: { childName: { in: names } } });
}
