import { isDeepStrictEqual } from "node:util";
import type {
  FlagRecord,
  FlagRecordEnvironment,
  FlagRecordStrategy,
} from "../flag-record/flag-record.logic.ts";

/**
 * The whole state of one flag at one instant: its FlagRecord (flag-record.logic.ts), as the
 * history keeps it (flag-history.write.ts) and the live flag is read.
 */
export type FlagState = FlagRecord;
export type PastEnvironment = FlagRecordEnvironment;
export type PastStrategy = FlagRecordStrategy;
export type PastTag = FlagRecord["tags"][number];
export type PastDependency = FlagRecord["dependencies"][number];

/** A deletion of tags that removed them from every flag without a per-flag event. */
export type TagDeletion = { at: Date; type: string; value: string | null };

/**
 * The flag's tags without those a later tag or tag-type deletion took away (the database
 * cascades them; the deletion names no flag, so no version of the flag records it).
 */
export function withoutDeletedTags(state: FlagState, since: Date, deletions: TagDeletion[]): FlagState {
  const relevant = deletions.filter((d) => d.at > since);
  if (relevant.length === 0) return state;
  const deleted = (t: PastTag) =>
    relevant.some((d) => d.type === t.type && (d.value === null || d.value === t.value));
  return { ...state, tags: state.tags.filter((t) => !deleted(t)) };
}

/** Flag-level fields a diff compares, in the order it reports them. */
const FLAG_FIELDS = [
  "exists",
  "archived",
  "stale",
  "description",
  "type",
  "impressionData",
  "tags",
  "dependencies",
] as const;
/** Per-environment fields a diff compares. */
const ENVIRONMENT_FIELDS = ["enabled", "strategies", "variants"] as const;
export type DiffField = (typeof FLAG_FIELDS)[number] | (typeof ENVIRONMENT_FIELDS)[number];

export type FieldDifference = {
  field: DiffField;
  /** null for flag-level fields. */
  environment: string | null;
  before: unknown;
  after: unknown;
};

function flagField(state: FlagState | null, field: (typeof FLAG_FIELDS)[number]): unknown {
  if (field === "exists") return state !== null;
  return state === null ? null : state[field];
}

function environmentField(
  state: FlagState | null,
  environment: string,
  field: (typeof ENVIRONMENT_FIELDS)[number],
): unknown {
  const slice = state?.environments.find((e) => e.name === environment);
  return slice === undefined ? null : slice[field];
}

/**
 * The fields that differ between two states of one flag (null: the flag did not exist), for
 * the given environments (every environment of either state when none are given).
 */
export function differences(
  before: FlagState | null,
  after: FlagState | null,
  environments?: string[],
): FieldDifference[] {
  const result: FieldDifference[] = [];
  for (const field of FLAG_FIELDS) {
    const [b, a] = [flagField(before, field), flagField(after, field)];
    if (!isDeepStrictEqual(b, a)) result.push({ field, environment: null, before: b, after: a });
  }
  const names =
    environments ??
    [...new Set([...(before?.environments ?? []), ...(after?.environments ?? [])].map((e) => e.name))].sort();
  for (const environment of names) {
    for (const field of ENVIRONMENT_FIELDS) {
      const [b, a] = [
        environmentField(before, environment, field),
        environmentField(after, environment, field),
      ];
      if (!isDeepStrictEqual(b, a)) result.push({ field, environment, before: b, after: a });
    }
  }
  return result;
}

/**
 * The event types that can change `field`. An event changes what it names, plus the documented
 * side effects: reviving turns every environment off; adding or removing a project environment
 * makes the flag's state there appear or disappear.
 */
export function eventTypesChanging(field: DiffField): string[] {
  return Object.keys(FIELDS_BY_EVENT).filter((type) => FIELDS_BY_EVENT[type]?.includes(field));
}

const FIELDS_BY_EVENT: Record<string, DiffField[]> = {
  "feature-created": [...FLAG_FIELDS, ...ENVIRONMENT_FIELDS],
  "feature-deleted": [...FLAG_FIELDS, ...ENVIRONMENT_FIELDS],
  "feature-archived": ["archived"],
  "feature-revived": ["archived", "enabled"],
  "feature-metadata-updated": ["description", "type", "impressionData"],
  "feature-stale-on": ["stale"],
  "feature-stale-off": ["stale"],
  "feature-tagged": ["tags"],
  "feature-untagged": ["tags"],
  "feature-dependency-added": ["dependencies"],
  "feature-dependency-removed": ["dependencies"],
  "feature-dependencies-removed": ["dependencies"],
  "feature-environment-enabled": ["enabled"],
  "feature-environment-disabled": ["enabled"],
  "feature-strategy-add": ["strategies"],
  "feature-strategy-update": ["strategies"],
  "feature-strategy-remove": ["strategies"],
  "strategy-order-changed": ["strategies"],
  "feature-environment-variants-updated": ["variants"],
  "project-environment-added": ["enabled", "strategies", "variants"],
  "project-environment-removed": ["enabled", "strategies", "variants"],
};
