import { recordEvent } from "../../events/record.ts";
import type { FeatureTag } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { lockFeature } from "../feature-environments/feature-lock.read.ts";
import { tagSchema } from "../tags/tag.inputs.ts";
import { ensureTag } from "../tags/tag.write.ts";

type TagRef = { type: string; value: string };

/**
 * Tags a flag. The tag type must exist (404 otherwise); a tag value seen for the first time is
 * created on the fly (`tag-created`, as Unleash). Records `feature-tagged` with `{type, value}`;
 * a tag the flag already has records nothing. Throws NotFound, ArchivedFeature, Validation.
 * Returns `tagged`, the new FeatureTag row (undefined when the flag already had the tag), and
 * the colour of the tag's type.
 */
export async function addFeatureTag(w: Write, featureName: string, input: TagRef) {
  const tag = parseInput(tagSchema, input);
  const feature = await lockFeature(w.tx, null, featureName);
  const { color } = await ensureTag(w, tag);
  // Raw: a model insert costs several times the statement's CPU in Prisma's runtime.
  const [tagged] = await sqlOf(w.tx).query<FeatureTag>`
    INSERT INTO "FeatureTag" ("featureName", "tagType", "tagValue", "createdAt", "createdByUserId")
    VALUES (${featureName}, ${tag.type}, ${tag.value}, ${w.now}::timestamp(3), ${w.actor.userId})
    ON CONFLICT DO NOTHING RETURNING *`;
  if (tagged) {
    await recordEvent(w, {
      type: "feature-tagged",
      project: feature.projectId,
      featureName,
      data: { type: tag.type, value: tag.value },
    });
  }
  return { feature, tag, tagged, color };
}

/**
 * Removes a tag from a flag: `feature-untagged` with preData `{type, value}` (the event's tags
 * are the flag's tags afterwards). A tag the flag does not have records nothing.
 * Throws NotFound, ArchivedFeature.
 */
export async function removeFeatureTag(w: Write, featureName: string, tag: TagRef) {
  const feature = await lockFeature(w.tx, null, featureName);
  const removed = await w.tx.featureTag.deleteMany({
    where: { featureName, tagType: tag.type, tagValue: tag.value },
  });
  if (removed.count > 0) {
    await recordEvent(w, {
      type: "feature-untagged",
      project: feature.projectId,
      featureName,
      preData: { type: tag.type, value: tag.value },
    });
  }
  return feature;
}
