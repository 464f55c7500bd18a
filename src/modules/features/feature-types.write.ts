import type { FeatureTypePayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";

/** The flag type as its events carry it. */
function featureTypeRecord(t: FeatureTypePayload): FeatureTypePayload {
  return { id: t.id, name: t.name, description: t.description, lifetimeDays: t.lifetimeDays };
}

/**
 * Sets how many days flags of a type live before they are potentially stale (0 or null:
 * never). Event: feature-type-updated (none when unchanged). Throws Validation (negative),
 * NotFound.
 */
export async function setFeatureTypeLifetime(w: Write, id: string, lifetimeDays: number | null | undefined) {
  if ((lifetimeDays ?? 0) < 0) {
    throw new ValidationError("lifetimeDays: must be 0 or more", [
      { path: "lifetimeDays", message: "must be 0 or more" },
    ]);
  }
  const before = await w.tx.featureType.findUnique({ where: { id } });
  if (!before) throw new NotFoundError(`Could not find feature type "${id}"`);
  const lifetime = lifetimeDays ? lifetimeDays : null;
  if (before.lifetimeDays !== lifetime) {
    const after = await w.tx.featureType.update({ where: { id }, data: { lifetimeDays: lifetime } });
    await recordEvent(w, {
      type: "feature-type-updated",
      data: featureTypeRecord(after),
      preData: featureTypeRecord(before),
    });
  }
}
