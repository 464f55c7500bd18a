import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import type { Write } from "../../shared/write.ts";

// Writes of FeatureDependency that flag actions of other modules need (archive, clone): this
// module owns the table (src/db/table-owners.ts). They take a flag the caller already locked.

/**
 * Removes every parent link of `child`: one `feature-dependencies-removed` if there was any.
 * The one path for it, whether asked for directly or as part of archiving the child.
 */
export async function removeParentLinks(w: Write, projectId: string, child: string) {
  const removed = await w.tx.featureDependency.deleteMany({ where: { childName: child } });
  if (removed.count > 0) {
    await recordEvent(w, { type: "feature-dependencies-removed", project: projectId, featureName: child });
  }
}

/** Gives `copy` the parent links of `source` (a clone depends on what its source depends on); no event. */
export async function copyParentLinks(tx: Tx, source: string, copy: string) {
  const parents = await tx.featureDependency.findMany({ where: { childName: source } });
  if (parents.length === 0) return;
  await tx.featureDependency.createMany({
    data: parents.map((p) => ({
      parentName: p.parentName,
      childName: copy,
      enabled: p.enabled,
      variants: p.variants,
    })),
  });
}
