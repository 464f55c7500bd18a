import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { InvalidOperationError, NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { dependencyLinksOf, hasActiveChildOutside } from "../dependencies/dependency.read.ts";
import { removeParentLinks } from "../dependencies/dependency.write.ts";
import { disableFlagEverywhere } from "../feature-environments/feature-environment.write.ts";
import { lockFeatureRows, lockFeatures } from "../feature-environments/feature-lock.read.ts";
import { featureRecord } from "./feature-create.write.ts";

/**
 * What archiving `names` would do (spec 4.12, reference §5): the flags among them that still
 * have a child outside the list, and whether any dependency link would be removed. Unknown
 * names are ignored.
 */
export async function validateArchive(tx: Tx, names: string[]) {
  const links = await dependencyLinksOf(tx, names);
  const archiving = new Set(names);
  const parentsWithChildFeatures = [
    ...new Set(
      links
        .filter((l) => archiving.has(l.parentName) && !archiving.has(l.childName))
        .map((l) => l.parentName),
    ),
  ].sort();
  return { parentsWithChildFeatures, hasDeletedDependencies: links.length > 0 };
}

/**
 * Archives flags of a project: each records `feature-archived` and enters lifecycle stage
 * `archived`; an archived child loses its dependency links (`feature-dependencies-removed`).
 * Refuses (InvalidOperation) when a flag is the parent of a child not archived with it.
 * Throws NotFound, ArchivedFeature (already archived). All or nothing.
 */
export async function archiveFeatures(w: Write, projectId: string, names: string[]) {
  const unique = [...new Set(names)];
  const features = await lockFeatures(w.tx, projectId, unique);
  if (await hasActiveChildOutside(w.tx, unique)) {
    throw new InvalidOperationError(
      unique.length > 1
        ? "You can not archive/delete those features since other features depend on them."
        : "You can not archive/delete this feature since other features depend on it.",
    );
  }
  for (const feature of features) {
    await w.tx.feature.update({ where: { name: feature.name }, data: { archivedAt: w.now } });
    await w.tx.featureLifecycle.upsert({
      where: { featureName_stage: { featureName: feature.name, stage: "archived" } },
      create: { featureName: feature.name, stage: "archived", createdAt: w.now },
      update: {},
    });
    await recordEvent(w, { type: "feature-archived", project: projectId, featureName: feature.name });
    await removeParentLinks(w, projectId, feature.name);
  }
  return unique;
}

/** The archived flags of a project among `names`; an unknown name or one of another project is a 404. */
async function archivedAmong(tx: Tx, projectId: string, names: string[]) {
  const unique = [...new Set(names)];
  const rows = await lockFeatureRows(tx, unique);
  for (const name of unique) {
    const row = rows.find((r) => r.name === name);
    if (!row || row.projectId !== projectId) {
      throw new NotFoundError(`Could not find feature flag "${name}" in project "${projectId}"`);
    }
  }
  return rows.filter((r) => r.archivedAt !== null);
}

/**
 * Brings archived flags back: off in every environment, lifecycle restarted at `initial`,
 * `feature-revived` each. Flags that are not archived are left alone (no event).
 * Throws NotFound for unknown names.
 */
export async function reviveFeatures(w: Write, projectId: string, names: string[]) {
  const archived = await archivedAmong(w.tx, projectId, names);
  for (const feature of archived) {
    await w.tx.feature.update({ where: { name: feature.name }, data: { archivedAt: null } });
    await disableFlagEverywhere(w.tx, feature.name);
    await w.tx.featureLifecycle.deleteMany({ where: { featureName: feature.name } });
    await w.tx.featureLifecycle.create({
      data: { featureName: feature.name, stage: "initial", createdAt: w.now },
    });
    await recordEvent(w, { type: "feature-revived", project: projectId, featureName: feature.name });
  }
  return archived.map((f) => f.name);
}

/**
 * Deletes archived flags for good: `feature-deleted` each, preData = the flag record, tags =
 * the tags it had. Names of flags that are not archived are skipped (as Unleash).
 * Throws NotFound for unknown names.
 */
export async function deleteFeatures(w: Write, projectId: string, names: string[]) {
  const archived = await archivedAmong(w.tx, projectId, names);
  for (const feature of archived) {
    const tags = await w.tx.featureTag.findMany({
      where: { featureName: feature.name },
      orderBy: [{ tagType: "asc" }, { tagValue: "asc" }],
    });
    await w.tx.feature.delete({ where: { name: feature.name } });
    await recordEvent(w, {
      type: "feature-deleted",
      project: projectId,
      featureName: feature.name,
      preData: featureRecord(feature),
      tags: tags.map((t) => ({ type: t.tagType, value: t.tagValue })),
    });
  }
  return archived.map((f) => f.name);
}
