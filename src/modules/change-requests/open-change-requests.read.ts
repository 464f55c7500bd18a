import type { Db, Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { type ByEnvironment, byFeature, type FlagFact } from "../../shared/flag-facts.ts";
import { OPEN_STATES } from "./change-request-states.types.ts";

export type ChangeRequestsRow = { featureName: string; environmentName: string; ids: number[] };

const OPEN_CHANGE_REQUEST_STATES_EXCLUDED = ["Applied", "Cancelled", "Rejected"];

/**
 * Ids of change requests still in progress (Draft included) touching each flag of `names` (a
 * text[] expression), per environment: a fragment, so a search statement computes it for its own
 * page and the loader for any list of flags.
 */
export const openChangeRequestsSql = (names: Prisma.Sql) => Prisma.sql`
  SELECT c."featureName", cr."environmentName", array_agg(DISTINCT cr.id ORDER BY cr.id) AS ids
  FROM "ChangeRequestChange" c JOIN "ChangeRequest" cr ON cr.id = c."changeRequestId"
  WHERE c."featureName" = ANY(${names}) AND cr.state <> ALL(${OPEN_CHANGE_REQUEST_STATES_EXCLUDED}::text[])
  GROUP BY c."featureName", cr."environmentName"`;

export const idsOf = (r: ChangeRequestsRow) => r.ids;

/** Open change requests per environment of a flag (a fact of the flag-facts loader). */
export const openChangeRequestsFact: FlagFact<ByEnvironment<number[]>, ChangeRequestsRow> = {
  sql: openChangeRequestsSql,
  valuesOf: (names, rows) => byFeature(names, rows, idsOf),
};

/**
 * Ids of the open change requests (Draft included) of a project environment with a change of one
 * of `actions` to `feature`, oldest first.
 */
export async function openChangeRequestIdsWith(
  db: Db | Tx,
  at: { project: string; environment: string; feature: string; actions: readonly string[] },
): Promise<number[]> {
  const rows = await db.changeRequest.findMany({
    where: {
      projectId: at.project,
      environmentName: at.environment,
      state: { in: [...OPEN_STATES] },
      changes: { some: { featureName: at.feature, action: { in: [...at.actions] } } },
    },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}
