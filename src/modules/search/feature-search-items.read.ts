import type { Context } from "../../context.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { byFeature } from "../../shared/flag-facts.ts";
import { idsOf } from "../change-requests/open-change-requests.read.ts";
import { countsOf, NO_EVALUATIONS } from "../features/last-hour-counts.read.ts";
import type { UserSummary } from "../users/user-summary.logic.ts";
import { type PageExtras, pageExtrasSql } from "./search-loaders.read.ts";

/**
 * Spec 2.9 search items built by the search statement itself, as JSON: a dashboard page is
 * then one statement and plain objects for GraphQL, instead of a Prisma read of 25-100 flags
 * with their relations and a resolver per relation field (which cost three quarters of the
 * request's CPU). Per-caller and per-hour parts come from `pageExtrasSql`, the same fragments
 * the loaders of `Feature` use.
 */
export type SearchEnvironment = {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  variantCount: number;
  lastSeenAt: string | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
  yes: number;
  no: number;
  changeRequestIds: number[];
};

export type SearchItem = {
  name: string;
  type: string;
  description: string | null;
  project: string;
  stale: boolean;
  potentiallyStale: boolean;
  impressionData: boolean;
  favorite: boolean;
  createdAt: string;
  archivedAt: string | null;
  lastSeenAt: string | null;
  dependencyType: "parent" | "child" | null;
  createdBy: UserSummary;
  environments: SearchEnvironment[];
  segments: string[];
  tags: { tagType: string; tagValue: string; color: string | null }[];
  lifecycle: { stage: string; status: string | null; enteredStageAt: string } | null;
};

type ItemRow = Omit<SearchItem, "favorite" | "environments"> & {
  environments: Omit<SearchEnvironment, "yes" | "no" | "changeRequestIds">[];
};

/** A `timestamp(3)` (UTC by convention) as RFC 3339 with `Z`, as the DateTime scalar prints it. */
const iso = (column: Prisma.Sql) => Prisma.sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The items of `names` (a text[] expression), in its order, as one JSON array. */
export function searchItemsSql(ctx: Context, names: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`json_build_object('items', (SELECT COALESCE(json_agg(item ORDER BY n.ord), '[]'::json)
    FROM unnest(${names}) WITH ORDINALITY AS n(name, ord)
    JOIN "Feature" f ON f.name = n.name
    CROSS JOIN LATERAL (SELECT ${itemJson()} AS item) i),
    'extras', ${pageExtrasSql(ctx, names)})`;
}

function itemJson(): Prisma.Sql {
  return Prisma.sql`json_build_object(
    'name', f.name, 'type', f.type, 'description', f.description, 'project', f."projectId",
    'stale', f.stale, 'potentiallyStale', f."potentiallyStale", 'impressionData', f."impressionData",
    'createdAt', ${iso(Prisma.sql`f."createdAt"`)}, 'archivedAt', ${iso(Prisma.sql`f."archivedAt"`)},
    'lastSeenAt', ${iso(Prisma.sql`f."lastSeenAt"`)},
    'dependencyType', CASE
      WHEN EXISTS (SELECT 1 FROM "FeatureDependency" d WHERE d."parentName" = f.name) THEN 'parent'
      WHEN EXISTS (SELECT 1 FROM "FeatureDependency" d WHERE d."childName" = f.name) THEN 'child' END,
    'createdBy', COALESCE((SELECT json_build_object('id', u.id,
        'name', COALESCE(u.name, u.username, u.email, 'unknown'), 'imageUrl', u."imageUrl")
      FROM "User" u WHERE u.id = f."createdByUserId"),
      json_build_object('id', 0, 'name', 'unknown', 'imageUrl', NULL)),
    'environments', (SELECT COALESCE(json_agg(json_build_object(
        'name', fe."environmentName", 'type', e.type, 'sortOrder', e."sortOrder", 'enabled', fe.enabled,
        'variantCount', jsonb_array_length(fe.variants), 'lastSeenAt', ${iso(Prisma.sql`fe."lastSeenAt"`)},
        'hasStrategies', EXISTS (SELECT 1 FROM "FeatureStrategy" s
          WHERE s."featureName" = f.name AND s."environmentName" = fe."environmentName"),
        'hasEnabledStrategies', EXISTS (SELECT 1 FROM "FeatureStrategy" s
          WHERE s."featureName" = f.name AND s."environmentName" = fe."environmentName" AND NOT s.disabled))
        ORDER BY e."sortOrder", fe."environmentName"), '[]'::json)
      FROM "FeatureEnvironment" fe JOIN "Environment" e ON e.name = fe."environmentName"
      WHERE fe."featureName" = f.name),
    'segments', (SELECT COALESCE(json_agg(DISTINCT sg.name COLLATE "C" ORDER BY sg.name COLLATE "C"), '[]'::json)
      FROM "FeatureStrategy" s JOIN "FeatureStrategySegment" ss ON ss."strategyId" = s.id
      JOIN "Segment" sg ON sg.id = ss."segmentId" WHERE s."featureName" = f.name),
    'tags', (SELECT COALESCE(json_agg(json_build_object('tagType', t."tagType", 'tagValue', t."tagValue",
        'color', tt.color) ORDER BY t."tagType", t."tagValue"), '[]'::json)
      FROM "FeatureTag" t JOIN "TagType" tt ON tt.name = t."tagType" WHERE t."featureName" = f.name),
    'lifecycle', CASE WHEN f."archivedAt" IS NOT NULL THEN json_build_object('stage', 'archived', 'status', NULL,
        'enteredStageAt', COALESCE(
          (SELECT ${iso(Prisma.sql`l."createdAt"`)} FROM "FeatureLifecycle" l
            WHERE l."featureName" = f.name AND l.stage = 'archived'),
          ${iso(Prisma.sql`f."archivedAt"`)}))
      ELSE (SELECT json_build_object('stage', l.stage, 'status', l.status,
          'enteredStageAt', ${iso(Prisma.sql`l."createdAt"`)})
        FROM "FeatureLifecycle" l WHERE l."featureName" = f.name AND l.stage = f."lifecycleStage") END)`;
}

/** Items with the caller's favourites, last hour's counts and open change requests filled in. */
export function toSearchItems(page: { items: ItemRow[]; extras: PageExtras }): SearchItem[] {
  const names = page.items.map((item) => item.name);
  const favorites = new Set(page.extras.favorites);
  const counts = byFeature(names, page.extras.counts, countsOf);
  const changes = byFeature(names, page.extras.changeRequests, idsOf);
  return page.items.map((item, i) => ({
    ...item,
    favorite: favorites.has(item.name),
    environments: item.environments.map((e) => ({
      ...e,
      ...(counts[i]?.get(e.name) ?? NO_EVALUATIONS),
      changeRequestIds: changes[i]?.get(e.name) ?? [],
    })),
  }));
}
