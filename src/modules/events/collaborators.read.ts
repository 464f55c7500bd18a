import { Prisma } from "../../generated/prisma/client.ts";
import type { FlagFact } from "../../shared/flag-facts.ts";
import { toUserSummary, type UserSummary } from "../users/user-summary.logic.ts";

type CollaboratorRow = NonNullable<Parameters<typeof toUserSummary>[0]> & {
  featureName: string;
  latestEventId: number;
};

/**
 * Each user who recorded an event on a flag, with the id of their latest event on it. A loose
 * index scan over ("featureName", "createdByUserId", id): the next creator after the last one
 * found, then that creator's latest event, each one index probe. Its cost follows the number of
 * creators, not the length of the flag's history (a GROUP BY read all 100,000 events of a flag:
 * 44 ms, against 0.2 ms).
 */
const collaboratorsSql = (names: Prisma.Sql) => Prisma.sql`
  SELECT flag.name AS "featureName", u.id, u.name, u.username, u.email, u."imageUrl", c."latestEventId"
    FROM unnest(${names}) AS flag(name)
    CROSS JOIN LATERAL (
      WITH RECURSIVE creators(id) AS (
        (SELECT e."createdByUserId" FROM "Event" e
          WHERE e."featureName" = flag.name AND e."createdByUserId" > 0
          ORDER BY e."createdByUserId" LIMIT 1)
        UNION ALL
        SELECT (SELECT e."createdByUserId" FROM "Event" e
                 WHERE e."featureName" = flag.name AND e."createdByUserId" > creators.id
                 ORDER BY e."createdByUserId" LIMIT 1)
          FROM creators WHERE creators.id IS NOT NULL
      )
      SELECT creators.id,
             (SELECT max(e.id) FROM "Event" e
               WHERE e."featureName" = flag.name AND e."createdByUserId" = creators.id) AS "latestEventId"
        FROM creators WHERE creators.id IS NOT NULL
    ) c
    JOIN "User" u ON u.id = c.id`;

/** The users who changed each flag, latest first (a fact of the flag-facts loader). */
export const collaboratorsFact: FlagFact<UserSummary[], CollaboratorRow> = {
  sql: collaboratorsSql,
  valuesOf: (names, rows) => {
    const users = new Map(names.map((name) => [name, [] as UserSummary[]]));
    for (const row of [...rows].sort((a, b) => b.latestEventId - a.latestEventId)) {
      users.get(row.featureName)?.push(toUserSummary(row));
    }
    return names.map((name) => users.get(name) as UserSummary[]);
  },
};
