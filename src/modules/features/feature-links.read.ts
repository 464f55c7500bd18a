import type { Db, Tx } from "../../db/database.ts";

/** The links of flag `featureName`, oldest first. */
export function linksOfFlag(db: Db | Tx, featureName: string) {
  return db.featureLink.findMany({ where: { featureName }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
