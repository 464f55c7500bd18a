import { Prisma } from "../../generated/prisma/client.ts";
import { type ByEnvironment, byFeature, type FlagFact } from "../../shared/flag-facts.ts";

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
