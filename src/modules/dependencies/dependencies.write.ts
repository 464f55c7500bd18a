import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { InvalidOperationError, NotFoundError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { checkFeature, lockFeature, lockFeatureRows } from "../feature-environments/feature-lock.read.ts";
import { type AddDependencyInput, addDependencySchema } from "./dependency.inputs.ts";
import { removeParentLinks } from "./dependency.write.ts";

/**
 * Makes `child` depend on a parent flag (`enabled`: the parent must be on, or off; `variants`:
 * parent variants that satisfy it, ignored when `enabled` is false). Records
 * `feature-dependency-added` with `{feature, enabled, variants?}`; re-adding the same link
 * unchanged records nothing. Refused (InvalidOperation) for a dependency on itself, a parent in
 * another project or archived, or a cycle. Throws NotFound (either flag), ArchivedFeature (child).
 */
export async function addDependency(w: Write, projectId: string, child: string, input: AddDependencyInput) {
  const data = parseInput(addDependencySchema, input);
  // Both rows locked: two opposite links added at once would each pass the cycle check.
  const locked = new Map((await lockFeatureRows(w.tx, [child, data.feature])).map((r) => [r.name, r]));
  const feature = checkFeature(locked.get(child), child, projectId, false);
  const parent = locked.get(data.feature);
  if (!parent) throw new NotFoundError(`Could not find parent feature flag "${data.feature}"`);
  if (parent.name === child) throw new InvalidOperationError("A feature flag cannot depend on itself.");
  if (parent.projectId !== projectId) {
    throw new InvalidOperationError("Parent and child features must be in the same project.");
  }
  if (parent.archivedAt) throw new InvalidOperationError(`The parent feature "${parent.name}" is archived.`);
  if (await isAncestor(w.tx, child, parent.name)) {
    throw new InvalidOperationError(
      `Adding "${parent.name}" as a parent of "${child}" would create a cycle: "${parent.name}" already depends on "${child}".`,
    );
  }
  const variants = data.enabled ? [...new Set(data.variants)] : [];
  const key = { parentName_childName: { parentName: parent.name, childName: child } };
  const existing = await w.tx.featureDependency.findUnique({ where: key });
  if (existing && existing.enabled === data.enabled && sameList(existing.variants, variants)) return feature;
  await w.tx.featureDependency.upsert({
    where: key,
    create: { parentName: parent.name, childName: child, enabled: data.enabled, variants },
    update: { enabled: data.enabled, variants },
  });
  await recordEvent(w, {
    type: "feature-dependency-added",
    project: projectId,
    featureName: child,
    data: { feature: parent.name, enabled: data.enabled, ...(variants.length > 0 ? { variants } : {}) },
  });
  return feature;
}

/** Whether `candidate` is `name` or one of its ancestors (parents, their parents, ...). */
async function isAncestor(tx: Tx, candidate: string, name: string): Promise<boolean> {
  const seen = new Set<string>();
  let frontier = [name];
  while (frontier.length > 0) {
    if (frontier.includes(candidate)) return true;
    for (const n of frontier) seen.add(n);
    const links = await tx.featureDependency.findMany({
      where: { childName: { in: frontier } },
      select: { parentName: true },
    });
    frontier = [...new Set(links.map((l) => l.parentName))].filter((p) => !seen.has(p));
  }
  return false;
}

function sameList(a: string[], b: string[]) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Removes the dependency of `child` on `parent`: `feature-dependency-removed` with
 * `{feature: parent}`; no such link records nothing. Throws NotFound, ArchivedFeature.
 */
export async function removeDependency(w: Write, projectId: string, child: string, parent: string) {
  const feature = await lockFeature(w.tx, projectId, child);
  const removed = await w.tx.featureDependency.deleteMany({
    where: { childName: child, parentName: parent },
  });
  if (removed.count > 0) {
    await recordEvent(w, {
      type: "feature-dependency-removed",
      project: projectId,
      featureName: child,
      data: { feature: parent },
    });
  }
  return feature;
}

/** Removes every parent link of `child`: one `feature-dependencies-removed` if there was any. */
export async function removeAllDependencies(w: Write, projectId: string, child: string) {
  const feature = await lockFeature(w.tx, projectId, child);
  await removeParentLinks(w, projectId, child);
  return feature;
}
