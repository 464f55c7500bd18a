import type { Db } from "../../db/database.ts";
import type {
  ClientFeature,
  ClientFeaturesState,
  ClientSegment,
} from "../evaluation/client-features.types.ts";
import { readFlagRecords } from "../flag-record/flag-record.read.ts";
import { sdkSegments } from "../segments/segment.read.ts";
import { clientFeatureOf } from "./client-feature.logic.ts";

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

/** A flag as read: the client-features fields plus what filters need (tags as `type:value`). */
export type ScopedFeature = ClientFeature & { tags: string[] };

/**
 * The configuration of one scope in Unleash's client-features format, read in two
 * statements (the flags' records in the environment, then the segments they use): each flag's
 * entry is its FlagRecord mapped by `clientFeatureOf`. Archived flags are left out; disabled
 * strategies are kept, marked `disabled` (the playground explains them; `forSdks` removes them
 * before SDKs see the state). Flags are in name order.
 */
export async function readClientState(db: Db, scope: ClientScope): Promise<ClientFeaturesState> {
  const records = await readFlagRecords(db, { projects: scope.projects }, scope.environment);
  const features = records.map((record) => clientFeatureOf(record, scope.environment));
  return { version: 2, features, segments: await readSegments(db, features) };
}

/** The segments the flags' strategies use, in id order. */
async function readSegments(db: Db, features: ClientFeature[]): Promise<ClientSegment[]> {
  const ids = new Set<number>();
  for (const f of features)
    for (const s of f.strategies ?? []) for (const id of s.segments ?? []) ids.add(id);
  if (ids.size === 0) return [];
  return sdkSegments(db, [...ids]);
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
