import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import type {
  ClientDependency,
  ClientFeature,
  ClientFeaturesState,
  ClientSegment,
  ClientStrategy,
} from "../evaluation/client-features.types.ts";

/**
 * What one SDK credential may read: one environment and a set of projects (`*`: all). Client
 * and frontend tokens carry exactly this; the playground builds one per request.
 */
export type ClientScope = { environment: string; projects: readonly string[] | "*" };

/** A stable key of a scope (projects sorted), for caches. */
export function scopeKey(scope: ClientScope): string {
  const projects = scope.projects === "*" ? "*" : [...new Set(scope.projects)].sort().join(",");
  return `${scope.environment}\u0000${projects}`;
}

type FeatureRow = {
  name: string;
  type: string;
  description: string | null;
  project: string;
  stale: boolean;
  impressionData: boolean;
  enabled: boolean;
  variants: ClientFeature["variants"];
  strategies: (ClientStrategy & { disabled: boolean })[];
  dependencies: ClientDependency[];
  tags: string[];
};

/** A flag as read: the client-features fields plus what filters need (tags as `type:value`). */
export type ScopedFeature = ClientFeature & { tags: string[] };

/**
 * The configuration of one scope in Unleash's client-features format, read in two
 * statements (flags with their strategies, then the segments they use). Archived flags are
 * left out; disabled strategies are kept, marked `disabled` (the playground explains them;
 * `forSdks` removes them before SDKs see the state). Flags are in name order.
 */
export async function readClientState(db: Db, scope: ClientScope): Promise<ClientFeaturesState> {
  const inScope =
    scope.projects === "*"
      ? Prisma.sql`TRUE`
      : Prisma.sql`f."projectId" = ANY(${[...scope.projects]}::text[])`;
  const rows = await sqlOf(db).query<FeatureRow>`
    SELECT f.name, f.type, f.description, f."projectId" AS project, f.stale, f."impressionData",
      COALESCE(fe.enabled, false) AS enabled,
      COALESCE(fe.variants, '[]'::jsonb) AS variants,
      COALESCE((
        SELECT json_agg(json_build_object(
          'id', s.id, 'name', s."strategyName", 'title', s.title, 'disabled', s.disabled,
          'sortOrder', s."sortOrder", 'parameters', s.parameters, 'constraints', s.constraints,
          'variants', s.variants,
          'segments', COALESCE((SELECT json_agg(ss."segmentId" ORDER BY ss."segmentId")
                                FROM "FeatureStrategySegment" ss WHERE ss."strategyId" = s.id), '[]'::json)
        ) ORDER BY s."sortOrder", s."createdAt", s.id)
        FROM "FeatureStrategy" s
        WHERE s."featureName" = f.name AND s."environmentName" = ${scope.environment}
      ), '[]'::json) AS strategies,
      COALESCE((
        SELECT json_agg(json_build_object('feature', d."parentName", 'enabled', d.enabled, 'variants', d.variants)
                        ORDER BY d."parentName")
        FROM "FeatureDependency" d WHERE d."childName" = f.name
      ), '[]'::json) AS dependencies,
      ARRAY(SELECT ft."tagType" || ':' || ft."tagValue" FROM "FeatureTag" ft
            WHERE ft."featureName" = f.name ORDER BY 1) AS tags
    FROM "Feature" f
    LEFT JOIN "FeatureEnvironment" fe ON fe."featureName" = f.name AND fe."environmentName" = ${scope.environment}
    WHERE f."archivedAt" IS NULL AND ${inScope}
    ORDER BY f.name`;
  const features = rows.map(toClientFeature);
  return { version: 2, features, segments: await readSegments(db, features) };
}

function toClientFeature(row: FeatureRow): ScopedFeature {
  return {
    tags: row.tags,
    name: row.name,
    type: row.type,
    description: row.description,
    project: row.project,
    enabled: row.enabled,
    stale: row.stale,
    impressionData: row.impressionData,
    strategies: row.strategies,
    variants: row.variants ?? [],
    ...(row.dependencies.length > 0 ? { dependencies: row.dependencies.map(toDependency) } : {}),
  };
}

function toDependency(d: ClientDependency): ClientDependency {
  return {
    feature: d.feature,
    enabled: d.enabled,
    ...(d.variants && d.variants.length > 0 ? { variants: d.variants } : {}),
  };
}

/** The segments the flags' strategies use, in id order. */
async function readSegments(db: Db, features: ClientFeature[]): Promise<ClientSegment[]> {
  const ids = new Set<number>();
  for (const f of features)
    for (const s of f.strategies ?? []) for (const id of s.segments ?? []) ids.add(id);
  if (ids.size === 0) return [];
  return sqlOf(db).query<ClientSegment>`
    SELECT id, name, constraints FROM "Segment" WHERE id = ANY(${[...ids]}::int[]) ORDER BY id`;
}

/**
 * The state as SDKs get it, in Unleash's clientFeatureSchema (no description or tags):
 * disabled strategies removed (SDKs do not skip them). A flag that is on with only disabled
 * strategies is served off, as an SDK given no strategy would turn it on for everyone.
 */
export function forSdks(state: ClientFeaturesState): ClientFeaturesState {
  return { ...state, features: state.features.map(sdkFeature) };
}

function sdkFeature(feature: ClientFeature): ClientFeature {
  const all = feature.strategies ?? [];
  const strategies = all.filter((s) => !s.disabled).map(({ disabled: _, ...s }) => s);
  return {
    name: feature.name,
    type: feature.type,
    enabled: feature.enabled && (strategies.length > 0 || all.length === 0),
    project: feature.project,
    stale: feature.stale,
    impressionData: feature.impressionData,
    strategies,
    variants: feature.variants ?? [],
    ...(feature.dependencies ? { dependencies: feature.dependencies } : {}),
  };
}
