import { createHash } from "node:crypto";
import type { Db } from "../../db/database.ts";
import type {
  ClientFeature,
  ClientFeaturesState,
  ClientSegment,
} from "../evaluation/client-features.types.ts";
import type { FlagRecord } from "../flag-record/flag-record.logic.ts";
import { readFlagRecordTexts } from "../flag-record/flag-record.read.ts";
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
  return (await readScopeConfiguration(db, scope)).state;
}

/** A scope's configuration as read, with what identifies its content and what it weighs. */
export type ScopeConfiguration = {
  state: ClientFeaturesState;
  /**
   * A hash of everything the state is made of (the flags' records as the database wrote them,
   * the segments they use): two reads of a scope with equal versions made equal states, on
   * any node, whatever events came between.
   */
  version: string;
  /** The length of the records' JSON text: a measure of the memory the scope's state takes. */
  textLength: number;
};

/** readClientState, with the version and size of what it read (the client-features cache keeps a version while it holds). */
export async function readScopeConfiguration(db: Db, scope: ClientScope): Promise<ScopeConfiguration> {
  const texts = await readFlagRecordTexts(db, { projects: scope.projects }, scope.environment);
  const hash = createHash("sha256").update(scope.environment);
  let textLength = 0;
  const features = texts.map((text) => {
    hash.update("\n").update(text);
    textLength += text.length;
    return clientFeatureOf(JSON.parse(text) as FlagRecord, scope.environment);
  });
  const segments = await readSegments(db, features);
  hash.update("\n").update(JSON.stringify(segments));
  return {
    state: { version: 2, features, segments },
    version: hash.digest("base64url").slice(0, 27),
    textLength,
  };
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
