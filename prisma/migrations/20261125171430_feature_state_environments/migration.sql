-- Time travel reads one environment without the others (docs/performance.md, "Time travel"):
-- a version keeps the flag without its environments in "state" and its environments by name in
-- "environments".

-- AlterTable
ALTER TABLE "FeatureStateVersion" ADD COLUMN     "environments" JSONB;

-- A flag's state as vexil_flag_state builds it -> its environments by name (null for null).
CREATE FUNCTION "vexil_environments_by_name"(state jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT COALESCE((SELECT jsonb_object_agg(e->>'name', e) FROM jsonb_array_elements(state->'environments') e),
                  '{}'::jsonb)
$$;

-- Existing versions, baselines included, take the new layout.
UPDATE "FeatureStateVersion"
   SET "environments" = vexil_environments_by_name("state"), "state" = "state" - 'environments'
 WHERE "state" IS NOT NULL;

