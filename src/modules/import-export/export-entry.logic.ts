import type { FlagRecord } from "../flag-record/flag-record.logic.ts";

/**
 * The parts of Unleash's export document (exportResultSchema) that hold the flags themselves,
 * from their FlagRecords read in the exported environment (each holds that environment's state,
 * or none), in the document's order: flags by name, strategies by flag then evaluation order.
 * Keys in the order Unleash writes them.
 */
export function exportEntriesOf(records: FlagRecord[]) {
  return {
    features: records.map((r) => ({
      name: r.name,
      type: r.type,
      description: r.description,
      project: r.project,
      stale: r.stale,
      impressionData: r.impressionData,
      archived: false,
    })),
    featureStrategies: records.flatMap((r) =>
      r.environments.flatMap((e) =>
        e.strategies.map((s) => ({
          id: s.id,
          featureName: r.name,
          name: s.name,
          title: s.title,
          disabled: s.disabled,
          sortOrder: s.sortOrder,
          segments: s.segments,
          constraints: s.constraints,
          parameters: s.parameters,
          variants: s.variants,
        })),
      ),
    ),
    featureEnvironments: records.flatMap((r) =>
      r.environments.map((e) => ({
        name: r.name,
        featureName: r.name,
        environment: e.name,
        enabled: e.enabled,
        variants: e.variants,
      })),
    ),
    featureTags: records.flatMap((r) =>
      r.tags.map((t) => ({ featureName: r.name, tagType: t.type, tagValue: t.value })),
    ),
    dependencies: records
      .filter((r) => r.dependencies.length > 0)
      .map((r) => ({
        feature: r.name,
        dependencies: r.dependencies.map((d) => ({
          feature: d.feature,
          enabled: d.enabled,
          variants: d.variants,
        })),
      })),
  };
}

/**
 * The context fields the exported flags use, by name: in a strategy's constraints, as a
 * strategy's or a variant's stickiness, or in a variant's overrides.
 */
export function usedContextFields(records: FlagRecord[]): string[] {
  const names = new Set<string>();
  for (const e of records.flatMap((r) => r.environments)) {
    for (const s of e.strategies) {
      for (const c of s.constraints) names.add(c.contextName);
      if (s.parameters.stickiness !== undefined) names.add(s.parameters.stickiness);
      for (const v of s.variants) names.add(v.stickiness);
    }
    for (const v of e.variants) {
      if (v.stickiness !== undefined) names.add(v.stickiness);
      for (const o of v.overrides ?? []) names.add(o.contextName);
    }
  }
  return [...names];
}
