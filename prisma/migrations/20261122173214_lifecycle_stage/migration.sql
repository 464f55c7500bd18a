-- AlterTable
ALTER TABLE "Feature" ADD COLUMN     "lifecycleStage" TEXT;

-- CreateIndex
CREATE INDEX "Feature_lifecycleStage_idx" ON "Feature"("lifecycleStage");

-- Kept by the database, so every writer of FeatureLifecycle (services, seeds, imports) keeps it
-- right: the highest-precedence stage a flag entered, the archived stage aside (NULL: none).
-- Prisma's diff does not model functions or triggers, so it never proposes dropping them.
CREATE FUNCTION "vexil_refresh_lifecycle_stage"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  flag text;
BEGIN
  FOR flag IN SELECT DISTINCT x FROM unnest(ARRAY[
      CASE WHEN TG_OP <> 'INSERT' THEN OLD."featureName" END,
      CASE WHEN TG_OP <> 'DELETE' THEN NEW."featureName" END]) AS x WHERE x IS NOT NULL LOOP
    UPDATE "Feature" f SET "lifecycleStage" = (
      SELECT l.stage FROM "FeatureLifecycle" l
      WHERE l."featureName" = flag
        AND array_position(ARRAY['initial','pre-live','live','completed']::text[], l.stage) IS NOT NULL
      ORDER BY array_position(ARRAY['initial','pre-live','live','completed']::text[], l.stage) DESC
      LIMIT 1)
    WHERE f.name = flag;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER "FeatureLifecycle_refresh_stage"
  AFTER INSERT OR UPDATE OR DELETE ON "FeatureLifecycle"
  FOR EACH ROW EXECUTE FUNCTION "vexil_refresh_lifecycle_stage"();

UPDATE "Feature" f SET "lifecycleStage" = (
  SELECT l.stage FROM "FeatureLifecycle" l
  WHERE l."featureName" = f.name
    AND array_position(ARRAY['initial','pre-live','live','completed']::text[], l.stage) IS NOT NULL
  ORDER BY array_position(ARRAY['initial','pre-live','live','completed']::text[], l.stage) DESC
  LIMIT 1);
