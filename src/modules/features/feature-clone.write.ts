import type { ResourceLimits } from "../../config.ts";
import type { Write } from "../../shared/write.ts";
import { copyParentLinks } from "../dependencies/dependency.write.ts";
import { featureEnvironmentsOf } from "../feature-environments/feature-environment.read.ts";
import { copyEnvironmentVariants } from "../feature-environments/feature-environment.write.ts";
import { lockFeature } from "../feature-environments/feature-lock.read.ts";
import { insertStrategy } from "../feature-environments/strategies.write.ts";
import { strategiesOf, strategyRecord } from "../feature-environments/strategy-record.read.ts";
import { createFeature } from "./feature-create.write.ts";

type StrategyToInsert = Parameters<typeof insertStrategy>[2];

/**
 * Copies a flag of `projectId` under a new name in the same project, as Unleash's clone does:
 * type, description and impression data; in every environment its variants and strategies
 * (a `groupId` parameter becomes the new name unless `replaceGroupId` is false) and its
 * parent links. The copy is off everywhere; tags are not copied. Events: feature-created,
 * then feature-strategy-add per strategy. Errors: NotFound, Archived (source), NameExists,
 * Validation (name), LimitExceeded.
 */
export async function cloneFeature(
  w: Write,
  projectId: string,
  source: string,
  newName: string,
  replaceGroupId: boolean,
  limits: ResourceLimits,
) {
  const original = await lockFeature(w.tx, projectId, source);
  const created = await createFeature(
    w,
    projectId,
    {
      name: newName,
      type: original.type,
      description: original.description,
      impressionData: original.impressionData,
    },
    limits.featureFlags,
  );
  const environments = await featureEnvironmentsOf(w.tx, source);
  for (const environment of environments) {
    const target = { project: projectId, feature: created.name, environment: environment.environmentName };
    await copyEnvironmentVariants(w.tx, created.name, environment.environmentName, environment.variants);
    for (const stored of await strategiesOf(w.tx, source, environment.environmentName)) {
      const { id: _id, ...strategy } = strategyRecord(stored);
      const parameters = { ...strategy.parameters };
      if (replaceGroupId && "groupId" in parameters) parameters.groupId = created.name;
      await insertStrategy(w, target, { ...strategy, parameters } as StrategyToInsert, limits);
    }
  }
  await copyParentLinks(w.tx, source, created.name);
  return created;
}
