import DataLoader from "dataloader";
import type { Db } from "./db/database.ts";
import { Prisma } from "./generated/prisma/client.ts";
import type { Principal } from "./modules/access/principal.types.ts";
import { toUserSummary, type UserSummary } from "./modules/users/user-summary.logic.ts";
import { actorOf } from "./shared/actor.ts";
import { sqlOf } from "./shared/sql.ts";
import { textArray } from "./shared/text-array.ts";

/**
 * Per-request batch loaders for fields Prisma's query planning cannot fold into the parent
 * query (per-user data, aggregates over events). Created fresh for every request and for
 * every subscription event, so nothing is cached across callers.
 */
export function createLoaders(db: Db, principal: Principal | null, now: () => Date) {
  // Favourites of the acting user: an admin API token acts as the shared admin-token user (-42).
  const actorId = actorOf(principal).userId;
  const facts = flagFactsLoader(db, { actorId, since: () => lastHourStart(now()) });
  const fact =
    <F extends FlagFact>(kind: F) =>
    (name: string) =>
      facts.load({ kind, name }) as Promise<FlagFacts[F]>;
  return {
    isFavoriteFeatureOfActor: fact("favorite"),
    featureCollaborators: fact("collaborators"),
    /** Ids of change requests still in progress (Draft included) touching a flag, per environment. */
    openChangeRequestIds: fact("openChangeRequests"),
    /** yes/no evaluation counts of the hour buckets that started within the last hour, per environment of a flag. */
    lastHourCounts: fact("lastHourCounts"),
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

export type Loaders = ReturnType<typeof createLoaders>;

export type EvaluationCounts = { yes: number; no: number };
export type CountsRow = { featureName: string; environmentName: string; yes: number; no: number };
export type ChangeRequestsRow = { featureName: string; environmentName: string; ids: number[] };
type CollaboratorRow = NonNullable<Parameters<typeof toUserSummary>[0]> & {
  featureName: string;
  latestEventId: number;
};
/** Per flag: a value per environment name. */
export type ByEnvironment<T> = Map<string, T>;

/** What the flag-facts loader knows of one flag. */
type FlagFacts = {
  favorite: boolean;
  collaborators: UserSummary[];
  openChangeRequests: ByEnvironment<number[]>;
  lastHourCounts: ByEnvironment<EvaluationCounts>;
};
type FlagFact = keyof FlagFacts;
type FactRows = { favorite: { featureName: string }[] } & {
  collaborators: CollaboratorRow[];
  openChangeRequests: ChangeRequestsRow[];
  lastHourCounts: CountsRow[];
};

/**
 * Facts about flags that a record of them shows besides its rows, loaded together: a request
 * for a flag record (a toggle's answer) asks for favourite, collaborators and open change
 * requests at once, and gets them in one statement instead of one round trip each. Only the
 * kinds some field asked for are computed (a list of every flag that shows only `favorite`
 * does not aggregate their events).
 */
function flagFactsLoader(db: Db, caller: { actorId: number | null; since: () => Date }) {
  const fragments: { [F in FlagFact]: (names: Prisma.Sql) => Prisma.Sql } = {
    favorite: (names) => favoriteFeaturesSql(caller.actorId, names),
    collaborators: collaboratorsSql,
    openChangeRequests: openChangeRequestsSql,
    lastHourCounts: (names) => countsSql(caller.since(), names),
  };
  // Each kind's values for the names asked, in their order, from the rows of its part.
  const valuesOf: { [F in FlagFact]: (names: string[], rows: FactRows[F]) => FlagFacts[F][] } = {
    favorite: (names, rows) => {
      const favourites = new Set(rows.map((r) => r.featureName));
      return names.map((name) => favourites.has(name));
    },
    collaborators: (names, rows) => {
      const users = new Map(names.map((name) => [name, [] as UserSummary[]]));
      for (const row of [...rows].sort((a, b) => b.latestEventId - a.latestEventId)) {
        users.get(row.featureName)?.push(toUserSummary(row));
      }
      return names.map((name) => users.get(name) as UserSummary[]);
    },
    openChangeRequests: (names, rows) => byFeature(names, rows, (r) => r.ids),
    lastHourCounts: (names, rows) => byFeature(names, rows, countsOf),
  };
  return new DataLoader<{ kind: FlagFact; name: string }, unknown, string>(
    async (keys) => {
      const namesOf = new Map<FlagFact, Set<string>>();
      for (const { kind, name } of keys) namesOf.set(kind, (namesOf.get(kind) ?? new Set()).add(name));
      const parts = [...namesOf].map(
        ([kind, names]) =>
          Prisma.sql`${kind}::text, (SELECT COALESCE(json_agg(x), '[]'::json)
            FROM (${fragments[kind](textArray([...names]))}) x)`,
      );
      const [row] = await sqlOf(db).query<{ facts: FactRows }>`
        SELECT json_build_object(${Prisma.join(parts)}) AS facts`;
      const values = new Map(
        [...namesOf].map(([kind, set]) => {
          const names = [...set];
          const of = valuesOf[kind] as (names: string[], rows: unknown) => unknown[];
          const found = of(names, row!.facts[kind]);
          return [kind, new Map(names.map((name, i) => [name, found[i]]))];
        }),
      );
      return keys.map(({ kind, name }) => values.get(kind)?.get(name));
    },
    { cacheKeyFn: ({ kind, name }) => `${kind}\u0000${name}` },
  );
}

/** Rows per flag of `names` (in its order), then per environment. */
export function byFeature<R extends { featureName: string; environmentName: string }, T>(
  names: readonly string[],
  rows: R[],
  value: (row: R) => T,
): ByEnvironment<T>[] {
  const maps = new Map(names.map((n) => [n, new Map<string, T>()]));
  for (const row of rows) maps.get(row.featureName)?.set(row.environmentName, value(row));
  return names.map((n) => maps.get(n) as ByEnvironment<T>);
}

export const countsOf = (r: CountsRow): EvaluationCounts => ({ yes: r.yes, no: r.no });

// Raw statements: search pages need these for 25-100 flags, and a Prisma model query costs
// several times the CPU of the statement itself. Each is a fragment over `names` (a text[]
// expression), so a search statement can compute them for its own page (`pageExtrasSql`) and
// the loader for any list of flags.

/** The flags among `names` that `userId` favourited (none for null). */
export function favoriteFeaturesSql(userId: number | null, names: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT "featureName" FROM "FavoriteFeature"
    WHERE "userId" = ${userId} AND "featureName" = ANY(${names})`;
}

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

const OPEN_CHANGE_REQUEST_STATES_EXCLUDED = ["Applied", "Cancelled", "Rejected"];

export const openChangeRequestsSql = (names: Prisma.Sql) => Prisma.sql`
  SELECT c."featureName", cr."environmentName", array_agg(DISTINCT cr.id ORDER BY cr.id) AS ids
  FROM "ChangeRequestChange" c JOIN "ChangeRequest" cr ON cr.id = c."changeRequestId"
  WHERE c."featureName" = ANY(${names}) AND cr.state <> ALL(${OPEN_CHANGE_REQUEST_STATES_EXCLUDED}::text[])
  GROUP BY c."featureName", cr."environmentName"`;

const HOUR_MS = 3_600_000;

/**
 * Where "the last hour" of flag search starts: an hour ago, as Unleash's `timestamp >= now() -
 * interval '1 hour'`. Buckets start on the hour, so this takes the current hour's bucket (what an
 * SDK just reported), and the previous one only when `now` is exactly on the hour.
 */
export const lastHourStart = (now: Date) => new Date(now.getTime() - HOUR_MS);

export const countsSql = (since: Date, names: Prisma.Sql) => Prisma.sql`
  SELECT "featureName", "environmentName", SUM(yes)::int AS yes, SUM(no)::int AS no
  FROM "FeatureMetricsHourly"
  WHERE hour >= ${since} AND "featureName" = ANY(${names})
  GROUP BY "featureName", "environmentName"`;
