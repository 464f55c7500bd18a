import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Write } from "../../shared/write.ts";
import type { VariantInput } from "./strategy.inputs.ts";
import type { EnvironmentVariant } from "./strategy.types.ts";
import { type EnvironmentTarget, loadTarget } from "./strategy-record.read.ts";
import { normalizeEnvironmentVariants } from "./variants.logic.ts";

/**
 * Replaces the variants of a flag in one environment (spec 2.5), weights rebalanced per spec
 * 2.4. Event: feature-environment-variants-updated `{variants}` / `{variants}` (none when
 * unchanged). Returns the stored variants.
 */
export async function setEnvironmentVariants(w: Write, target: EnvironmentTarget, inputs: VariantInput[]) {
  const { environment } = await loadTarget(w, target);
  const variants = normalizeEnvironmentVariants(inputs);
  const before = environment.variants as EnvironmentVariant[];
  await w.tx.featureEnvironment.update({
    where: {
      featureName_environmentName: { featureName: target.feature, environmentName: target.environment },
    },
    data: { variants: variants as Prisma.InputJsonValue },
  });
  await recordEvent(w, {
    type: "feature-environment-variants-updated",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
    data: { variants },
    preData: { variants: before },
  });
  return variants;
}
