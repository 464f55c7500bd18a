import type { FlagPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import type { Feature } from "../../generated/prisma/client.ts";
import { LimitExceededError, NameExistsError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { flagEnvironmentsInsert } from "../feature-environments/feature-environment.write.ts";
import { ensureTag } from "../tags/tag.write.ts";
import { type CreateFeatureInput, createFeatureSchema } from "./feature.inputs.ts";

/**
 * Creates a flag in `projectId`, off in every environment of the project, at lifecycle stage
 * `initial`, with its initial tags (no `feature-tagged` events, as Unleash).
 * Records `feature-created`. Throws NotFound (project), NameExists, Validation (type), LimitExceeded.
 */
export async function createFeature(
  w: Write,
  projectId: string,
  input: CreateFeatureInput,
  featureLimit: number,
) {
  const data = parseInput(createFeatureSchema, input);
  await lockLimitedResource(w.tx, "feature");
  const checks = await creationChecks(w, projectId, data.name, data.type);
  if (!checks.projectActive) throw new NotFoundError(`Could not find project with id "${projectId}"`);
  if (checks.existingProject !== null) {
    throw new NameExistsError(
      `A flag with the name "${data.name}" already exists (in project "${checks.existingProject}").`,
    );
  }
  if (!checks.typeExists) {
    throw new ValidationError(`type: "${data.type}" is not a flag type`, [
      { path: "type", message: "unknown flag type" },
    ]);
  }
  if (checks.activeFlags >= featureLimit) {
    throw new LimitExceededError("feature flag", featureLimit);
  }
  for (const tag of data.tags) await ensureTag(w, tag);
  // One statement for the flag and its rows (states per environment, lifecycle stage, tags):
  // model inserts would be a round trip each and several times their CPU in Prisma's runtime.
  // The rows' foreign keys are checked at the statement's end, when the flag is there.
  const [feature] = await sqlOf(w.tx).query<Feature>`
    WITH feature AS (
      INSERT INTO "Feature" ("name", "projectId", "type", "description", "impressionData", "createdAt", "createdByUserId")
      VALUES (${data.name}, ${projectId}, ${data.type}, ${data.description ?? null}, ${data.impressionData},
              ${w.now}::timestamp(3), ${w.actor.userId})
      RETURNING *
    ), environments AS (${flagEnvironmentsInsert(data.name, checks.environments)}
    ), lifecycle AS (
      INSERT INTO "FeatureLifecycle" ("featureName", "stage", "createdAt")
      VALUES (${data.name}, 'initial', ${w.now}::timestamp(3))
    ), tags AS (
      INSERT INTO "FeatureTag" ("featureName", "tagType", "tagValue", "createdByUserId")
      SELECT ${data.name}, tag.type, tag.value, ${w.actor.userId}
        FROM jsonb_to_recordset(${JSON.stringify(data.tags)}::jsonb) AS tag("type" text, "value" text)
    )
    SELECT * FROM feature`;
  if (!feature) throw new Error("the flag insert returned no row");
  await recordEvent(w, {
    type: "feature-created",
    project: projectId,
    featureName: feature.name,
    data: featureRecord(feature),
    // Without initial tags there is nothing to read back (the recorder reads them in order).
    ...(data.tags.length === 0 ? { tags: [] } : {}),
  });
  return feature;
}

/**
 * What creating flag `name` in `projectId` depends on, read in one statement (a flag is
 * created often, by scripts too): the project and its environments, a flag already holding
 * the name, the type, and how many flags are active (the instance limit).
 */
async function creationChecks(w: Write, projectId: string, name: string, type: string) {
  const [row] = await sqlOf(w.tx).query<{
    projectActive: boolean;
    environments: string[];
    existingProject: string | null;
    typeExists: boolean;
    activeFlags: number;
  }>`
    SELECT p.id IS NOT NULL AND p."archivedAt" IS NULL AS "projectActive",
           COALESCE((SELECT array_agg(e."environmentName" ORDER BY e."environmentName")
                       FROM "ProjectEnvironment" e WHERE e."projectId" = p.id), '{}') AS "environments",
           (SELECT f."projectId" FROM "Feature" f WHERE f.name = ${name}) AS "existingProject",
           EXISTS (SELECT 1 FROM "FeatureType" t WHERE t.id = ${type}) AS "typeExists",
           (SELECT count(*)::int FROM "Feature" f WHERE f."archivedAt" IS NULL) AS "activeFlags"
      FROM (VALUES (1)) AS one LEFT JOIN "Project" p ON p.id = ${projectId}`;
  if (!row) throw new Error("the creation checks returned no row");
  return row;
}

/** The flag as stored, the shape used for `data`/`preData` of flag events. */
export function featureRecord(f: {
  name: string;
  projectId: string;
  type: string;
  description: string | null;
  stale: boolean;
  impressionData: boolean;
  createdAt: Date;
  archivedAt: Date | null;
}): FlagPayload {
  return {
    name: f.name,
    project: f.projectId,
    type: f.type,
    description: f.description,
    stale: f.stale,
    impressionData: f.impressionData,
    createdAt: f.createdAt.toISOString(),
    archived: f.archivedAt !== null,
  };
}
