import { ValidationError } from "../../shared/errors.ts";
import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import type { ScopedFeature } from "../client-features/client-features.read.ts";
import type { ClientFeature, ClientFeaturesState } from "../evaluation/client-features.types.ts";

/** The filters of `GET /api/client/features` (Unleash's): projects, a name prefix, tags. */
export type FeaturesQuery = { project?: string[]; namePrefix?: string; tag?: [string, string][] };

/** Reads the filters from the query string; `tag` is `type:value` (repeatable). */
export function featuresQuery(params: URLSearchParams): FeaturesQuery {
  const project = params.getAll("project").filter(Boolean);
  const namePrefix = params.get("namePrefix") ?? undefined;
  const tag = params.getAll("tag").map((t): [string, string] => {
    const at = t.indexOf(":");
    if (at <= 0) throw new ValidationError(`tag must be type:value; got "${t}"`);
    return [t.slice(0, at), t.slice(at + 1)];
  });
  return {
    ...(project.length > 0 ? { project } : {}),
    ...(namePrefix ? { namePrefix } : {}),
    ...(tag.length > 0 ? { tag } : {}),
  };
}

/** One flag of the snapshot as SDKs get it, or undefined. */
export function sdkFeature(snapshot: ClientSnapshot, name: string): ClientFeature | undefined {
  return snapshot.sdkCompiled().features.get(name)?.source;
}

/** The answer to `query` from the snapshot (Unleash's client-features document). */
export function answerOf(
  snapshot: ClientSnapshot,
  query: FeaturesQuery,
): ClientFeaturesState & { query: unknown } {
  const tagsOf = new Map((snapshot.state.features as ScopedFeature[]).map((f) => [f.name, f.tags]));
  const wantedTags = query.tag?.map(([type, value]) => `${type}:${value}`);
  const features = snapshot.sdkState.features.filter(
    (f) =>
      (!query.project || query.project.includes(f.project ?? "")) &&
      (!query.namePrefix || f.name.startsWith(query.namePrefix)) &&
      (!wantedTags || wantedTags.some((t) => tagsOf.get(f.name)?.includes(t))),
  );
  const used = new Set(features.flatMap((f) => (f.strategies ?? []).flatMap((s) => s.segments ?? [])));
  return {
    version: 2,
    features,
    segments: (snapshot.sdkState.segments ?? []).filter((s) => used.has(s.id)),
    query: { ...query, environment: snapshot.scope.environment, inlineSegmentConstraints: false },
  };
}
