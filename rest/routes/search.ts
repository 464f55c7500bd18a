import { z } from "zod";
import { nodesOf } from "../../src/shared/pagination.ts";
import { EventFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { eventSchema } from "../schemas.ts";
import {
  booleanParam,
  dateFilter,
  dayIs,
  featureSort,
  listFilter,
  segmentFilter,
  single,
  statusFilter,
  tagFilter,
} from "../search-params.ts";

/** Spec 2.9 feature search item. */
const SearchItemFields = graphql(`
  fragment SearchItemFields on FeatureSearchItem {
    name type description dependencyType project stale favorite impressionData
    createdAt archivedAt lastSeenAt createdBy { id name imageUrl }
    environments {
      name type enabled sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies
      yes no changeRequestIds
    }
    segments tags { type value color } lifecycle { stage status enteredStageAt }
  }
`);

const filterString = (description: string) => z.string().optional().describe(description);

const featureSearchItemSchema = resultSchema(SearchItemFields, {
  dependencyType: z.enum(["parent", "child"]).nullable(),
});

export const searchRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/search/features",
    tag: "Search",
    summary: "Search and filter flags (spec 4.2)",
    description:
      "Filters are ANDed; a value that breaks a parameter's pattern is a 400 naming the parameter. `total` counts every match.",
    document: graphql(
      `query SearchFeatures($filter: FeatureSearchFilter, $sort: FeatureSearchSort, $favoritesFirst: Boolean, $first: Int, $offset: Int) {
        featureSearch(filter: $filter, sort: $sort, favoritesFirst: $favoritesFirst, first: $first, offset: $offset) {
          totalCount edges { node { ...SearchItemFields } } } }`,
      [SearchItemFields],
    ),
    // Unleash's filter parameters (OPERATOR:values) parsed into GraphQL's filter input.
    variables: {
      filter: ({ query }) => ({
        query: single(query, "query"),
        project: listFilter(query, "project"),
        type: listFilter(query, "type"),
        createdBy: listFilter(query, "createdBy"),
        state: listFilter(query, "state"),
        lifecycle: listFilter(query, "lifecycle"),
        tag: tagFilter(query),
        segment: segmentFilter(query),
        status: statusFilter(query),
        createdAt: dateFilter(query, "createdAt"),
        archived: booleanParam(query, "archived", true),
        favorite: booleanParam(query, "favorite", true),
      }),
      sort: ({ query }) => featureSort(query),
      favoritesFirst: ({ query }) => booleanParam(query, "favoritesFirst"),
      first: "query.limit:int",
      offset: "query.offset:int",
    },
    respond: (data) => {
      const { nodes, totalCount } = nodesOf(data.featureSearch);
      return { features: nodes, total: totalCount };
    },
    schemas: {
      query: z.object({
        query: filterString("Comma-separated terms, ORed: substring of name, description or a tag value."),
        project: filterString("IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:ids"),
        type: filterString("IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:types"),
        createdBy: filterString("IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:user ids"),
        state: filterString("IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:active,stale,potentially-stale"),
        lifecycle: filterString("IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:initial,pre-live,live,completed,archived"),
        tag: filterString(
          "INCLUDE|DO_NOT_INCLUDE|INCLUDE_ALL_OF|INCLUDE_ANY_OF|EXCLUDE_IF_ANY_OF|EXCLUDE_ALL:type:value,...",
        ),
        segment: filterString("Same six operators:segment names"),
        status: filterString("env:enabled|disabled; repeat (or status[]=) to OR several"),
        createdAt: filterString("IS_BEFORE|IS_ON_OR_AFTER:YYYY-MM-DD"),
        archived: filterString("true|false (or IS:true|IS:false)"),
        favorite: filterString("IS:true|IS:false: only the caller's favourites, or only the others"),
        favoritesFirst: filterString("true|false"),
        sortBy: filterString(
          "name|type|stale|project|createdAt|lastSeenAt|environment:<env>; default createdAt",
        ),
        sortOrder: filterString("asc|desc; default asc"),
        offset: filterString("Flags to skip; default 0"),
        limit: filterString("Page size 1 to 100; default 50"),
      }),
      response: z.object({ features: z.array(featureSearchItemSchema), total: z.number().int() }),
    },
    errors: [400],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/search/events",
    tag: "Search",
    summary: "Search events (spec 4.4)",
    description: "Newest first. `from`/`to` are whole days, both inclusive.",
    document: graphql(
      `query SearchEvents($filter: EventSearchFilter, $first: Int, $offset: Int) {
        eventSearch(filter: $filter, first: $first, offset: $offset) { totalCount edges { node { ...EventFields } } } }`,
      [EventFields],
    ),
    variables: {
      filter: ({ query }) => ({
        query: single(query, "query"),
        feature: listFilter(query, "feature", true),
        project: listFilter(query, "project", true),
        type: listFilter(query, "type", true),
        createdBy: listFilter(query, "createdBy", true),
        environment: listFilter(query, "environment", true),
        from: dayIs(query, "from"),
        to: dayIs(query, "to"),
      }),
      first: "query.limit:int",
      offset: "query.offset:int",
    },
    respond: (data) => {
      const { nodes, totalCount } = nodesOf(data.eventSearch);
      return { events: nodes, total: totalCount };
    },
    schemas: {
      query: z.object({
        query: filterString("Text inside the event's data, preData or tags (case-insensitive)."),
        feature: filterString("IS|IS_ANY_OF:flag names"),
        project: filterString("IS|IS_ANY_OF:project ids"),
        type: filterString("IS|IS_ANY_OF:event types"),
        createdBy: filterString("IS|IS_ANY_OF:user ids"),
        environment: filterString("IS|IS_ANY_OF:environment names"),
        from: filterString("IS:YYYY-MM-DD (inclusive)"),
        to: filterString("IS:YYYY-MM-DD (inclusive)"),
        offset: filterString("Events to skip; default 0"),
        limit: filterString("Page size 1 to 1000; default 50"),
      }),
      response: z.object({ events: z.array(eventSchema), total: z.number().int() }),
    },
    errors: [400],
  }),
]);
