import type { ClientDependency, ClientStrategy } from "../evaluation/client-features.types.ts";
import { environmentOf, type FlagRecord, type FlagRecordStrategy } from "../flag-record/flag-record.logic.ts";
import type { ScopedFeature } from "./client-features.read.ts";

/**
 * The flag's entry in the client-features state of `environment` (readClientState), before
 * `forSdks` removes what SDKs do not see: its strategies there (disabled ones marked), its
 * variants there, its parents (a parent's variants only when it names some) and its tags as
 * `type:value`. Keys in the order SDKs have always been served them.
 */
export function clientFeatureOf(record: FlagRecord, environment: string): ScopedFeature {
  const state = environmentOf(record, environment);
  return {
    tags: record.tags.map((t) => `${t.type}:${t.value}`),
    name: record.name,
    type: record.type,
    description: record.description,
    project: record.project,
    enabled: state.enabled,
    stale: record.stale,
    impressionData: record.impressionData,
    strategies: state.strategies.map(clientStrategyOf),
    variants: state.variants,
    ...(record.dependencies.length > 0 ? { dependencies: record.dependencies.map(clientDependencyOf) } : {}),
  };
}

function clientStrategyOf(s: FlagRecordStrategy): ClientStrategy & { disabled: boolean; sortOrder: number } {
  return {
    id: s.id,
    name: s.name,
    title: s.title,
    disabled: s.disabled,
    sortOrder: s.sortOrder,
    parameters: s.parameters,
    constraints: s.constraints,
    variants: s.variants,
    segments: s.segments,
  };
}

function clientDependencyOf(d: FlagRecord["dependencies"][number]): ClientDependency {
  return {
    feature: d.feature,
    enabled: d.enabled,
    ...(d.variants.length > 0 ? { variants: d.variants } : {}),
  };
}
