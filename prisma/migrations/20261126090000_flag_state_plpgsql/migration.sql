-- The two functions every recorded event calls (events/record.ts), as PL/pgSQL instead of SQL:
-- PostgreSQL cannot inline a SQL function whose body reads tables, so it parsed and planned
-- vexil_flag_state's five nested subqueries at every event (~0.27 ms of the database's CPU per
-- write on PostgreSQL 15, twice the run itself); PL/pgSQL keeps the plan per connection.
-- Same bodies, same answers, same snapshot (STABLE: the caller's).

CREATE OR REPLACE FUNCTION "vexil_flag_state"(flag text) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
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
  );
END
$$;

CREATE OR REPLACE FUNCTION "vexil_environments_by_name"(state jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN COALESCE((SELECT jsonb_object_agg(e->>'name', e) FROM jsonb_array_elements(state->'environments') e),
                  '{}'::jsonb);
END
$$;
