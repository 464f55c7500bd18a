-- CreateTable
CREATE TABLE "FeatureStateVersion" (
    "id" BIGSERIAL NOT NULL,
    "featureName" TEXT NOT NULL,
    "eventId" BIGINT,
    "eventType" TEXT,
    "environment" TEXT,
    "projectId" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "baseline" BOOLEAN NOT NULL DEFAULT false,
    "state" JSONB,

    CONSTRAINT "FeatureStateVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FeatureStateVersion_featureName_createdAt_id_idx" ON "FeatureStateVersion"("featureName", "createdAt", "id");

-- The whole state of one flag as time travel keeps it (src/modules/time-travel/flag-state.ts
-- describes the shape); null when there is no such flag. Environments by name, strategies in
-- evaluation order, segments by id, tags by type then value, dependencies by parent.
CREATE FUNCTION "vexil_flag_state"(flag text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'name', f.name,
    'project', f."projectId",
    'type', f.type,
    'description', f.description,
    'stale', f.stale,
    'impressionData', f."impressionData",
    'archived', f."archivedAt" IS NOT NULL,
    'createdAt', to_char(f."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'environments', COALESCE((
      SELECT jsonb_agg(jsonb_build_object(
        'name', fe."environmentName",
        'enabled', fe.enabled,
        'variants', fe.variants,
        'strategies', COALESCE((
          SELECT jsonb_agg(jsonb_build_object(
            'id', s.id,
            'name', s."strategyName",
            'title', s.title,
            'disabled', s.disabled,
            'sortOrder', s."sortOrder",
            'parameters', s.parameters,
            'constraints', s.constraints,
            'variants', s.variants,
            'segments', COALESCE((
              SELECT jsonb_agg(ss."segmentId" ORDER BY ss."segmentId")
                FROM "FeatureStrategySegment" ss WHERE ss."strategyId" = s.id), '[]'::jsonb)
          ) ORDER BY s."sortOrder", s."createdAt", s.id)
            FROM "FeatureStrategy" s
           WHERE s."featureName" = f.name AND s."environmentName" = fe."environmentName"), '[]'::jsonb)
      ) ORDER BY fe."environmentName")
        FROM "FeatureEnvironment" fe WHERE fe."featureName" = f.name), '[]'::jsonb),
    'tags', COALESCE((
      SELECT jsonb_agg(jsonb_build_object('type', t."tagType", 'value', t."tagValue")
                       ORDER BY t."tagType", t."tagValue")
        FROM "FeatureTag" t WHERE t."featureName" = f.name), '[]'::jsonb),
    'dependencies', COALESCE((
      SELECT jsonb_agg(jsonb_build_object('feature', d."parentName", 'enabled', d.enabled,
                                          'variants', to_jsonb(d.variants)) ORDER BY d."parentName")
        FROM "FeatureDependency" d WHERE d."childName" = f.name), '[]'::jsonb))
  FROM "Feature" f WHERE f.name = flag
$$;

-- Baseline: the flags that exist now, as they are, from their last recorded event (or their
-- creation when they have none). Their history before that instant is not exact.
INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", "projectId", "createdBy", "createdAt", "baseline", "state")
SELECT f.name, last.id, last.type, f."projectId", last."createdBy", GREATEST(COALESCE(last."createdAt", f."createdAt"), f."createdAt"), true,
       vexil_flag_state(f.name)
  FROM "Feature" f
  LEFT JOIN LATERAL (SELECT e.id, e.type, e."createdBy", e."createdAt" FROM "Event" e
                      WHERE e."featureName" = f.name ORDER BY e.id DESC LIMIT 1) last ON true;
