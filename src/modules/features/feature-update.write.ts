import { recordEvent } from "../../events/record.ts";
import { ValidationError } from "../../shared/errors.ts";
import { applyJsonPatch, type PatchOperation, patchOperationsSchema } from "../../shared/json-patch.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { lockFeature, lockFeatures } from "../feature-environments/feature-lock.read.ts";
import { type UpdateFeatureInput, updateFeatureSchema } from "./feature.inputs.ts";
import { featureRecord } from "./feature-create.write.ts";

/**
 * Changes a flag's metadata. A change of description, type or impressionData records one
 * `feature-metadata-updated` (data = new record, preData = old record); a change of `stale`
 * records `feature-stale-on`/`-off`. Fields left out (undefined) are kept. Nothing changed,
 * nothing recorded. Throws NotFound, ArchivedFeature, Validation (unknown type).
 */
export async function updateFeature(w: Write, projectId: string, name: string, input: UpdateFeatureInput) {
  const data = parseInput(updateFeatureSchema, input);
  const before = await lockFeature(w.tx, projectId, name);
  if (data.type !== undefined && !(await w.tx.featureType.findUnique({ where: { id: data.type } }))) {
    throw new ValidationError(`type: "${data.type}" is not a flag type`, [
      { path: "type", message: "unknown flag type" },
    ]);
  }
  const metadata = {
    description: data.description === undefined ? before.description : data.description,
    type: data.type ?? before.type,
    impressionData: data.impressionData ?? before.impressionData,
  };
  const metadataChanged =
    metadata.description !== before.description ||
    metadata.type !== before.type ||
    metadata.impressionData !== before.impressionData;
  let after = before;
  if (metadataChanged) {
    after = await w.tx.feature.update({ where: { name }, data: metadata });
    await recordEvent(w, {
      type: "feature-metadata-updated",
      project: projectId,
      featureName: name,
      data: featureRecord(after),
      preData: featureRecord(before),
    });
  }
  if (data.stale !== undefined) await applyStale(w, after, data.stale);
  return after;
}

/** Fields of the flag a JSON Patch may change (the rest are identity or have their own paths). */
const PATCHABLE = ["description", "type", "impressionData", "stale"] as const;

/**
 * Applies an RFC 6902 JSON Patch to the flag's metadata document
 * `{description, type, impressionData, stale}` and stores the result as `updateFeature` does.
 * Paths outside those fields are refused naming the path; a failing `test` op is a ValidationError.
 */
export async function patchFeature(w: Write, projectId: string, name: string, operations: PatchOperation[]) {
  const ops = parseInput(patchOperationsSchema, operations);
  const current = await lockFeature(w.tx, projectId, name);
  ops.forEach((op, i) => {
    for (const path of [op.path, op.from].filter((p): p is string => p !== undefined)) {
      const field = path.split("/")[1];
      if (!PATCHABLE.includes(field as (typeof PATCHABLE)[number]) || path.split("/").length !== 2) {
        throw new ValidationError(
          `${i}.path: "${path}" cannot be patched; use one of /${PATCHABLE.join(", /")}`,
          [{ path: `${i}.path`, message: `"${path}" cannot be patched` }],
        );
      }
    }
  });
  const document = {
    description: current.description,
    type: current.type,
    impressionData: current.impressionData,
    stale: current.stale,
  };
  const patched: Record<string, unknown> = applyJsonPatch(document, ops);
  return updateFeature(w, projectId, name, {
    description: (patched.description ?? null) as string | null,
    type: patched.type as string,
    impressionData: patched.impressionData as boolean,
    stale: patched.stale as boolean,
  });
}

/**
 * Marks flags of a project stale or not. Only flags whose value changes record
 * `feature-stale-on`/`-off`. Throws NotFound (any name), ArchivedFeature; nothing is written
 * unless every name is valid.
 */
export async function setFeaturesStale(w: Write, projectId: string, names: string[], stale: boolean) {
  const features = await lockFeatures(w.tx, projectId, names);
  const result = [];
  for (const feature of features) result.push(await applyStale(w, feature, stale));
  return result;
}

async function applyStale<F extends { name: string; projectId: string; stale: boolean }>(
  w: Write,
  feature: F,
  stale: boolean,
): Promise<F> {
  if (feature.stale === stale) return feature;
  const updated = await w.tx.feature.update({ where: { name: feature.name }, data: { stale } });
  await recordEvent(w, {
    type: stale ? "feature-stale-on" : "feature-stale-off",
    project: feature.projectId,
    featureName: feature.name,
  });
  return { ...feature, ...updated };
}
