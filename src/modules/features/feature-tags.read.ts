import type { Db, Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";

/**
 * The tags an event about flag `featureName` keeps when its writer gives none (EventHooks of
 * src/events/hooks.ts): the flag's current tags as a jsonb array of `{type, value}`, ordered by
 * type and value; empty without a flag. A scalar subquery of the event's insert.
 */
export function flagTagsOfEvent(featureName: string | null): Prisma.Sql {
  return Prisma.sql`(
    SELECT COALESCE(jsonb_agg(jsonb_build_object('type', t."tagType", 'value', t."tagValue")
                              ORDER BY t."tagType", t."tagValue"), '[]'::jsonb)
      FROM "FeatureTag" t WHERE t."featureName" = ${featureName})`;
}

/** The tags of the flags `names`. */
export function tagsOfFlags(db: Db | Tx, names: string[]) {
  return db.featureTag.findMany({ where: { featureName: { in: names } } });
}
