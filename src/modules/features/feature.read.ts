import type { Db, Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { ArchivedFeatureError, NotFoundError } from "../../shared/errors.ts";
import { checkFeature } from "../feature-environments/feature-lock.read.ts";

/** Loads a flag through a project path, for reading (`checkFeature` gives the answers). */
export async function featureInProject(
  tx: Tx,
  projectId: string,
  featureName: string,
  allowArchived = false,
) {
  return checkFeature(
    await tx.feature.findUnique({ where: { name: featureName } }),
    featureName,
    projectId,
    allowArchived,
  );
}

/** Loads a flag by name alone (paths without a project): 404 when unknown, 400 when archived. */
export async function featureByName(tx: Tx, featureName: string, allowArchived = false) {
  const feature = await tx.feature.findUnique({ where: { name: featureName } });
  if (!feature) throw new NotFoundError(`Could not find feature flag "${featureName}"`);
  if (feature.archivedAt && !allowArchived) throw new ArchivedFeatureError();
  return feature;
}

/** How many flags of project `projectId` are not archived. */
export function activeFlagCount(tx: Tx, projectId: string): Promise<number> {
  return tx.feature.count({ where: { projectId, archivedAt: null } });
}

/** The names of the flags of project `projectId`, archived ones included. */
export async function flagNamesOfProject(tx: Tx, projectId: string): Promise<string[]> {
  const flags = await tx.feature.findMany({ where: { projectId }, select: { name: true } });
  return flags.map((f) => f.name);
}

type FeatureQuery = { include?: Prisma.FeatureInclude; select?: Prisma.FeatureSelect };

/** The flag `name` as a Pothos field's `query` asks for it (its relations included). */
export function featureForQuery(db: Db | Tx, query: FeatureQuery, name: string) {
  return db.feature.findUniqueOrThrow({ ...query, where: { name } });
}

/** The flag `name` of project `projectId` as `query` asks for it, or null. */
export function featureInProjectForQuery(db: Db | Tx, query: FeatureQuery, name: string, projectId: string) {
  return db.feature.findFirst({ ...query, where: { name, projectId } });
}

/** The flag `name` (archived ones too), or null. */
export function featureWithName(db: Db | Tx, name: string) {
  return db.feature.findUnique({ where: { name } });
}

/** The flags among `names` (archived ones too), with their project and archive time. */
export function flagsNamed(db: Db | Tx, names: string[]) {
  return db.feature.findMany({
    where: { name: { in: names } },
    select: { name: true, projectId: true, archivedAt: true },
  });
}

/** The names among `names` of flags not archived (of `projectId` when given). */
export async function activeFlagNames(db: Db | Tx, names: string[], projectId?: string): Promise<string[]> {
  const flags = await db.feature.findMany({
    where: { name: { in: names }, ...(projectId === undefined ? {} : { projectId }), archivedAt: null },
    select: { name: true },
  });
  return flags.map((f) => f.name);
}

/** The ids of the flag types. */
export async function featureTypeIds(db: Db | Tx): Promise<string[]> {
  return (await db.featureType.findMany({ select: { id: true } })).map((t) => t.id);
}

/** The flags among `names` with their project and type, newest first. */
export function flagsNewestFirst(db: Db, names: string[]) {
  return db.feature.findMany({
    where: { name: { in: names } },
    select: { name: true, projectId: true, type: true },
    orderBy: [{ createdAt: "desc" }, { name: "asc" }],
  });
}

/** The name of the oldest flag of project `projectId` (archived ones too), or null. */
export async function oldestFlagName(db: Db, projectId: string): Promise<string | null> {
  const first = await db.feature.findFirst({
    where: { projectId },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
    select: { name: true },
  });
  return first?.name ?? null;
}
