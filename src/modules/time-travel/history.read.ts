import type { Db, Tx } from "../../db/database.ts";
import { typedPayloads } from "../../events/stored-payloads.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";
import { tagDeletionEvents } from "../events/event.read.ts";
import {
  type FlagState,
  type PastEnvironment,
  type TagDeletion,
  withoutDeletedTags,
} from "./flag-state.logic.ts";

/** One flag at one instant, with how far its history can be trusted. */
export type FlagAt = {
  name: string;
  at: Date;
  /** null: the flag did not exist then, or (exact false) its history does not reach back so far. */
  state: FlagState | null;
  /** The last event applied (null: none, or a baseline without a recorded event). */
  lastEventId: bigint | null;
  /** When that state began. */
  since: Date | null;
  /** Whether `state` is the flag's state at `at` as the event log has it. */
  exact: boolean;
  /** From this instant on the flag's history is exact: its creation, or the baseline. */
  exactSince: Date | null;
  /** Whether the flag existed before time travel began (its history starts at a baseline). */
  predates: boolean;
};

type VersionRow = {
  name: string;
  eventId: bigint | null;
  createdAt: Date | null;
  /**
   * The flag without its environments, as JSON text, parsed here: about twice as fast as jsonb
   * decoded by the driver (docs/decisions.md D-27).
   */
  state: string | null;
  /** JSON text: the environments by name, or with an environment asked for, that one's state. */
  environments: string | null;
  firstAt: Date | null;
  firstBaseline: boolean | null;
};

/**
 * The flags `names` at `at` (a flag without any history is left out), with only `environment`
 * when given. A state holds every event recorded at or before `at` (`createdAt <= at`); among
 * events of the same millisecond, the later one by id wins.
 */
export async function flagsAt(
  db: Db | Tx,
  names: string[],
  at: Date,
  environment: string | null = null,
): Promise<FlagAt[]> {
  if (names.length === 0) return [];
  const rows = await inSlices(
    names,
    FLAGS_PER_STATEMENT,
    (slice) => sqlOf(db).query<VersionRow>`
    SELECT n.name, v."eventId", v."createdAt", v.state::text AS state,
           ${environmentsOf(Prisma.sql`v`, environment)}::text AS environments,
           first."createdAt" AS "firstAt", first.baseline AS "firstBaseline"
      FROM unnest(${textArray(slice)}) AS n(name)
      LEFT JOIN LATERAL (${versionAt(Prisma.sql`n.name`, at)}) v ON true
      LEFT JOIN LATERAL (${firstVersion(Prisma.sql`n.name`)}) first ON true
     WHERE first."createdAt" IS NOT NULL`,
  );
  const deletions = await deletionsSince(db, rows, at);
  return rows.map((r) => toFlagAt(r, at, deletions, environment));
}

/**
 * Flags read per statement, and statements at once. A snapshot or a diff of thousands of flags
 * is a few index lookups per flag, bound by the database's CPU: its slices run as concurrent
 * statements, so PostgreSQL spreads them over its cores, and the driver reads one slice's rows
 * while the next is computed (on one connection, a transaction's or PGlite's, they run one after
 * the other). At most STATEMENTS_AT_ONCE of the pool's connections (`npm run bench:time-travel`).
 */
export const FLAGS_PER_STATEMENT = 1_000;
const STATEMENTS_AT_ONCE = 4;

/** `read` of each slice of `items` (at most `size` long), a few at once; results in order. */
export async function inSlices<T, R>(
  items: T[],
  size: number,
  read: (slice: T[]) => Promise<R[]>,
): Promise<R[]> {
  const results: R[][] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i * size < items.length; i = next++)
      results[i] = await read(items.slice(i * size, (i + 1) * size));
  };
  await Promise.all(
    Array.from({ length: Math.min(STATEMENTS_AT_ONCE, Math.ceil(items.length / size)) }, worker),
  );
  return results.flat();
}

/** The latest version of flag `name` at `at`. */
function versionAt(name: Prisma.Sql, at: Date) {
  return Prisma.sql`SELECT id, "eventId", "createdAt", state, environments FROM "FeatureStateVersion"
     WHERE "featureName" = ${name} AND "createdAt" <= ${at}::timestamp(3)
     ORDER BY "createdAt" DESC, id DESC LIMIT 1`;
}

/** The first version of flag `name`: its creation, or its baseline (looked up only when `when`). */
function firstVersion(name: Prisma.Sql, when: Prisma.Sql = Prisma.sql`true`) {
  return Prisma.sql`SELECT "createdAt", baseline FROM "FeatureStateVersion"
     WHERE "featureName" = ${name} AND ${when} ORDER BY "createdAt", id LIMIT 1`;
}

/** The environments of version `v` (jsonb): all of them by name, or only `environment`'s state. */
function environmentsOf(v: Prisma.Sql, environment: string | null) {
  return environment === null
    ? Prisma.sql`${v}.environments`
    : Prisma.sql`(${v}.environments -> ${environment}::text)`;
}

/** The tag deletions after the oldest of the versions read, through `at`. */
async function deletionsSince(db: Db | Tx, rows: { createdAt: Date | null }[], at: Date) {
  const earliest = rows.reduce<Date | null>(
    (min, r) => (r.createdAt && (!min || r.createdAt < min) ? r.createdAt : min),
    null,
  );
  return earliest ? tagDeletions(db, earliest, at) : [];
}

/**
 * The flags among `names` whose state may differ between `from` and `to`, at both instants
 * (each as `flagsAt` has it): those with another version at `to` than at `from` holding another
 * state. With `compareAll` (a tag deletion in between changed flags without a version of
 * theirs), every flag with history.
 */
export async function flagPairsAt(
  db: Db | Tx,
  names: string[],
  range: { from: Date; to: Date },
  environment: string | null,
  compareAll: boolean,
): Promise<[FlagAt, FlagAt][]> {
  if (names.length === 0) return [];
  const [before, after] = [
    environmentsOf(Prisma.sql`a`, environment),
    environmentsOf(Prisma.sql`b`, environment),
  ];
  type PairRow = VersionRow & {
    beforeEventId: bigint | null;
    beforeAt: Date | null;
    before: string | null;
    beforeEnvironments: string | null;
  };
  const rows = await inSlices(
    names,
    FLAGS_PER_STATEMENT,
    (slice) => sqlOf(db).query<PairRow>`
    SELECT n.name, a."eventId" AS "beforeEventId", a."createdAt" AS "beforeAt", a.state::text AS before,
           ${before}::text AS "beforeEnvironments",
           b."eventId", b."createdAt", b.state::text AS state, ${after}::text AS environments,
           first."createdAt" AS "firstAt", first.baseline AS "firstBaseline"
      FROM unnest(${slice}::text[]) AS n(name)
      LEFT JOIN LATERAL (${versionAt(Prisma.sql`n.name`, range.from)}) a ON true
      LEFT JOIN LATERAL (${versionAt(Prisma.sql`n.name`, range.to)}) b ON true
      -- Only needed without a version at \`from\`: created since, or older than time travel.
      LEFT JOIN LATERAL (${firstVersion(Prisma.sql`n.name`, Prisma.sql`a.id IS NULL`)}) first ON true
     WHERE (a.id IS NOT NULL OR first."createdAt" IS NOT NULL)
       AND (${compareAll} OR (a.id IS DISTINCT FROM b.id
                              AND (a.state IS DISTINCT FROM b.state OR ${before} IS DISTINCT FROM ${after})))`,
  );
  const deletions = await deletionsSince(db, rows, range.to);
  // With a version at `from`, both ends are within the exact history.
  return rows.map((r) => {
    // What both ends share (most often the flag's fields, when only an environment changed) is
    // parsed once: half the parsing, and the comparison of a diff finds the same object.
    const parsed = new Map<string, unknown>();
    const parse = (text: string) => {
      if (!parsed.has(text)) parsed.set(text, JSON.parse(text));
      return parsed.get(text);
    };
    const before = { ...r, eventId: r.beforeEventId, createdAt: r.beforeAt, state: r.before };
    return [
      toFlagAt({ ...before, environments: r.beforeEnvironments }, range.from, deletions, environment, parse),
      toFlagAt(r, range.to, deletions, environment, parse),
    ];
  });
}

function toFlagAt(
  row: VersionRow,
  at: Date,
  deletions: TagDeletion[],
  environment: string | null,
  parse: (text: string) => unknown = JSON.parse,
): FlagAt {
  const base = { name: row.name, at, exactSince: row.firstAt, predates: row.firstBaseline === true };
  // Before a baseline, the flag existed but its state was not kept.
  if (row.firstBaseline && row.firstAt && at < row.firstAt) {
    return { ...base, state: null, lastEventId: null, since: null, exact: false };
  }
  const parsed = row.state === null ? null : stateOf(row.state, row.environments, environment, parse);
  const state = parsed && row.createdAt ? withoutDeletedTags(parsed, row.createdAt, deletions) : null;
  return { ...base, state, lastEventId: row.eventId, since: row.createdAt, exact: true };
}

/** A version's state from its columns (see VersionRow); with `environment`, only that one. */
function stateOf(
  flag: string,
  environments: string | null,
  environment: string | null,
  parse: (text: string) => unknown,
): FlagState {
  const parsed = environments === null ? null : parse(environments);
  const list: PastEnvironment[] =
    environment !== null
      ? parsed === null
        ? []
        : [parsed as PastEnvironment]
      : Object.values((parsed ?? {}) as Record<string, PastEnvironment>).sort((x, y) =>
          x.name < y.name ? -1 : x.name > y.name ? 1 : 0,
        );
  return { ...(parse(flag) as Omit<FlagState, "environments">), environments: list };
}

/** Tag and tag-type deletions in (`after`, `through`]: they untag flags without a flag event. */
export async function tagDeletions(db: Db | Tx, after: Date, through: Date): Promise<TagDeletion[]> {
  const rows = await tagDeletionEvents(db, after, through);
  return rows.flatMap((r): TagDeletion[] => {
    const event = typedPayloads(r);
    if (event?.type === "tag-deleted" && event.preData) {
      return [{ at: r.createdAt, type: event.preData.type, value: event.preData.value }];
    }
    if (event?.type === "tag-type-deleted" && event.preData) {
      return [{ at: r.createdAt, type: event.preData.name, value: null }];
    }
    return [];
  });
}

/** One flag at `at`, or null when it has no history at all. */
export async function flagAt(db: Db | Tx, name: string, at: Date): Promise<FlagAt | null> {
  const [flag] = await flagsAt(db, [name], at);
  return flag ?? null;
}

/**
 * Names of the flags that may have belonged to `project` at `at` or later: those in it now and
 * those deleted from it after `at` (flags never change project in Vexil).
 */
export async function projectFlagNames(db: Db | Tx, project: string, since: Date): Promise<string[]> {
  const rows = await sqlOf(db).query<{ name: string }>`
    SELECT name FROM "Feature" WHERE "projectId" = ${project}
    UNION
    SELECT "featureName" FROM "Event"
     WHERE type = 'feature-deleted' AND project = ${project} AND "createdAt" > ${since}::timestamp(3)
       AND "featureName" IS NOT NULL`;
  return rows.map((r) => r.name);
}

/**
 * Every flag of `project` at `at`, each with only its state in `environment`: the flags that
 * existed then, and those whose history does not reach back so far (state null, exact false).
 */
export async function environmentAt(
  db: Db | Tx,
  project: string,
  environment: string,
  at: Date,
): Promise<FlagAt[]> {
  const flags = await flagsAt(db, await projectFlagNames(db, project, at), at, environment);
  return flags
    .filter((f) => !f.exact || f.state?.project === project)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The instant from which the history of every one of `flags` is exact: the latest baseline
 * among them (null when none predates time travel, so all of their history is exact).
 */
export function exactSinceOf(flags: FlagAt[]): Date | null {
  let latest: Date | null = null;
  for (const f of flags) {
    if (f.predates && f.exactSince && (!latest || f.exactSince > latest)) latest = f.exactSince;
  }
  return latest;
}

/** The project the flag last belonged to, as its history has it (deleted flags too). */
export async function lastKnownProject(db: Db | Tx, name: string): Promise<string | null> {
  const row = await db.featureStateVersion.findFirst({
    where: { featureName: name },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { projectId: true },
  });
  return row?.projectId ?? null;
}

/**
 * When change request `id` was applied: its events share the group `change-request` + id and
 * the transaction's time (null when it was not applied, or its events are gone).
 */
export async function changeRequestAppliedAt(db: Db | Tx, id: number): Promise<Date | null> {
  const [row] = await sqlOf(db).query<{ at: Date | null }>`
    SELECT min("createdAt") AS at FROM "Event"
     WHERE "groupType" = 'change-request' AND "groupId" = ${String(id)}`;
  return row?.at ?? null;
}
