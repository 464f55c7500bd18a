import { builder } from "../../builder.ts";

/**
 * Typed filter inputs shared by `featureSearch` and `eventSearch`. The REST layer turns
 * Unleash's `OPERATOR:v1,v2` strings into these, so both surfaces run one implementation.
 */

export const LIST_OPERATORS = ["IS", "IS_NOT", "IS_ANY_OF", "IS_NONE_OF"] as const;
export type ListOperator = (typeof LIST_OPERATORS)[number];

export const SET_OPERATORS = [
  "INCLUDE",
  "DO_NOT_INCLUDE",
  "INCLUDE_ALL_OF",
  "INCLUDE_ANY_OF",
  "EXCLUDE_IF_ANY_OF",
  "EXCLUDE_ALL",
] as const;
export type SetOperator = (typeof SET_OPERATORS)[number];

export const DATE_OPERATORS = ["IS_BEFORE", "IS_ON_OR_AFTER"] as const;
export type DateOperator = (typeof DATE_OPERATORS)[number];

export const FEATURE_SORT_FIELDS = [
  "NAME",
  "TYPE",
  "STALE",
  "PROJECT",
  "CREATED_AT",
  "LAST_SEEN_AT",
  "ENVIRONMENT",
] as const;
export type FeatureSortField = (typeof FEATURE_SORT_FIELDS)[number];

export const ListOperatorEnum = builder.enumType("ListOperator", {
  description: "How a scalar column is compared with a list of values.",
  values: {
    IS: { description: "Equal to the (single) value." },
    IS_NOT: { description: "Not equal to the value; rows where the column is null are dropped." },
    IS_ANY_OF: { description: "Equal to one of the values." },
    IS_NONE_OF: { description: "Equal to none of the values; rows where the column is null are dropped." },
  },
});

export const EqualityOperatorEnum = builder.enumType("EqualityOperator", {
  description: "Inclusion-only comparison (event search).",
  values: {
    IS: { description: "Equal to the (single) value." },
    IS_ANY_OF: { description: "Equal to one of the values." },
  },
});

export const SetOperatorEnum = builder.enumType("SetOperator", {
  description: "How the set of tags/segments a flag has is compared with the listed ones.",
  values: {
    INCLUDE: { description: "Has at least one of them." },
    DO_NOT_INCLUDE: { description: "Has none of them." },
    INCLUDE_ALL_OF: { description: "Has every one of them." },
    INCLUDE_ANY_OF: { description: "Has at least one of them." },
    EXCLUDE_IF_ANY_OF: { description: "Has none of them." },
    EXCLUDE_ALL: { description: "Does not have all of them (having some is fine)." },
  },
});

export const DateOperatorEnum = builder.enumType("DateOperator", {
  description: "Comparison with a calendar day (UTC midnight).",
  values: {
    IS_BEFORE: { description: "Strictly before the day starts." },
    IS_ON_OR_AFTER: { description: "On the day or later." },
  },
});

export const SortDirectionEnum = builder.enumType("SortDirection", {
  description: "Sort direction.",
  values: { ASC: { description: "Ascending." }, DESC: { description: "Descending." } },
});

export const FeatureSortFieldEnum = builder.enumType("FeatureSortField", {
  description: "What flag search sorts by; ties break on creation time, then name.",
  values: {
    NAME: { description: "Flag name." },
    TYPE: { description: "Flag type." },
    STALE: { description: "Stale flag (false before true ascending)." },
    PROJECT: { description: "Project id." },
    CREATED_AT: { description: "Creation time (the default)." },
    LAST_SEEN_AT: { description: "Latest metrics seen in any environment; never seen last." },
    ENVIRONMENT: { description: "Enabled in `environment` (false before true ascending); missing last." },
  },
});

export const StringListFilterInput = builder.inputType("StringListFilter", {
  description: "An operator and the values it compares with.",
  fields: (t) => ({
    operator: t.field({ type: ListOperatorEnum, required: true, description: "Comparison." }),
    values: t.stringList({ required: true, description: "Values (IS / IS_NOT use the first)." }),
  }),
});

export const EqualityFilterInput = builder.inputType("EqualityFilter", {
  description: "Equal to one of the values.",
  fields: (t) => ({
    operator: t.field({ type: EqualityOperatorEnum, required: true, description: "Comparison." }),
    values: t.stringList({ required: true, description: "Values." }),
  }),
});

export const TagMatchInput = builder.inputType("TagMatch", {
  description: "A tag named by type and value.",
  fields: (t) => ({
    type: t.string({ required: true, description: "Tag type." }),
    value: t.string({ required: true, description: "Tag value." }),
  }),
});

export const TagSetFilterInput = builder.inputType("TagSetFilter", {
  description: "Compares the flag's tags with the listed ones.",
  fields: (t) => ({
    operator: t.field({ type: SetOperatorEnum, required: true, description: "Comparison." }),
    values: t.field({ type: [TagMatchInput], required: true, description: "Tags." }),
  }),
});

export const NameSetFilterInput = builder.inputType("NameSetFilter", {
  description: "Compares a set of names the flag has (e.g. segments) with the listed ones.",
  fields: (t) => ({
    operator: t.field({ type: SetOperatorEnum, required: true, description: "Comparison." }),
    values: t.stringList({ required: true, description: "Names." }),
  }),
});

export const DateFilterInput = builder.inputType("DateFilter", {
  description: "Compares a timestamp with a calendar day.",
  fields: (t) => ({
    operator: t.field({ type: DateOperatorEnum, required: true, description: "Comparison." }),
    date: t.string({ required: true, description: "Day as YYYY-MM-DD (UTC)." }),
  }),
});

export const EnvironmentStatusInput = builder.inputType("EnvironmentStatus", {
  description: "A flag enabled or disabled in one environment.",
  fields: (t) => ({
    environment: t.string({ required: true, description: "Environment name." }),
    enabled: t.boolean({ required: true, description: "Whether the flag must be on there." }),
  }),
});

export const FeatureSearchFilterInput = builder.inputType("FeatureSearchFilter", {
  description: "Flag search filters; all given filters must hold (AND).",
  fields: (t) => ({
    query: t.string({
      description:
        "Comma-separated terms, ORed: case-insensitive substring of the name, description or a tag value (% and _ are literal).",
    }),
    project: t.field({ type: StringListFilterInput, description: "Project ids." }),
    type: t.field({ type: StringListFilterInput, description: "Flag types." }),
    createdBy: t.field({ type: StringListFilterInput, description: "Creator user ids." }),
    state: t.field({ type: StringListFilterInput, description: "active, stale or potentially-stale." }),
    lifecycle: t.field({
      type: StringListFilterInput,
      description: "Current lifecycle stage: initial, pre-live, live, completed or archived.",
    }),
    tag: t.field({ type: TagSetFilterInput, description: "Tags of the flag." }),
    segment: t.field({ type: NameSetFilterInput, description: "Segments used by any strategy of the flag." }),
    status: t.field({
      type: [EnvironmentStatusInput],
      description: "Enabled/disabled in environments; entries are ORed.",
    }),
    createdAt: t.field({ type: DateFilterInput, description: "Creation day." }),
    archived: t.boolean({
      description:
        "true: archived flags only; false: active only. Default: active only, unless `lifecycle` says.",
    }),
    favorite: t.boolean({
      description:
        "true: only the caller's favourite flags; false: only the others (API tokens: the admin-token user's).",
    }),
  }),
});

export const FeatureSearchSortInput = builder.inputType("FeatureSearchSort", {
  description: "Sort order of flag search.",
  fields: (t) => ({
    field: t.field({ type: FeatureSortFieldEnum, required: true, description: "Sort key." }),
    direction: t.field({ type: SortDirectionEnum, description: "Default ASC." }),
    environment: t.string({ description: "The environment, for field ENVIRONMENT." }),
  }),
});

export type FeatureSearchFilter = typeof FeatureSearchFilterInput.$inferInput;
export type FeatureSearchSort = typeof FeatureSearchSortInput.$inferInput;
