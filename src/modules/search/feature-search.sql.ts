import { Prisma } from "../../generated/prisma/client.ts";
import type { ListOperator, SetOperator } from "./search.inputs.ts";

/**
 * SQL fragments of flag search. Every user value is a bound parameter (Prisma.sql tagged
 * templates); only fixed column names and keywords are written into the text.
 */
export type Sql = Prisma.Sql;
export const sql = Prisma.sql;
export const TRUE = Prisma.sql`TRUE`;

export function and(parts: Sql[]): Sql {
  return parts.length === 0 ? TRUE : Prisma.sql`(${Prisma.join(parts, " AND ")})`;
}

export function or(parts: Sql[]): Sql {
  return parts.length === 0 ? Prisma.sql`FALSE` : Prisma.sql`(${Prisma.join(parts, " OR ")})`;
}

/** `%term%` for ILIKE with `\`, `%` and `_` escaped, so they match themselves. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** IS / IS_ANY_OF: the column is one of the values; IS_NOT / IS_NONE_OF: none (nulls drop out). */
export function listCondition(column: Sql, operator: ListOperator, values: Sql): Sql {
  const positive = operator === "IS" || operator === "IS_ANY_OF";
  return positive ? sql`${column} = ANY(${values})` : sql`${column} <> ALL(${values})`;
}

/**
 * The six set operators of reference-behaviours §1.3 over `flagsHaving(needed)`, the flags that
 * have at least `needed` of the listed items: a hashed semi-join, not a subquery per flag.
 */
export function setCondition(
  operator: SetOperator,
  flagsHaving: (needed: number) => Sql,
  listed: number,
): Sql {
  switch (operator) {
    case "INCLUDE":
    case "INCLUDE_ANY_OF":
      return sql`f.name IN (${flagsHaving(1)})`;
    case "DO_NOT_INCLUDE":
    case "EXCLUDE_IF_ANY_OF":
      return sql`f.name NOT IN (${flagsHaving(1)})`;
    case "INCLUDE_ALL_OF":
      return sql`f.name IN (${flagsHaving(listed)})`;
    case "EXCLUDE_ALL":
      return sql`f.name NOT IN (${flagsHaving(listed)})`;
  }
}

/** Flags having at least `needed` of the `type:value` tags (found through the tag index). */
export function flagsWithTags(tags: { type: string; value: string }[]) {
  const keys = tags.map((t) => `${t.type}:${t.value}`);
  return (needed: number) => sql`SELECT t."featureName" FROM "FeatureTag" t
    WHERE t."tagType" = ANY(${tags.map((t) => t.type)}::text[]) AND t."tagValue" = ANY(${tags.map((t) => t.value)}::text[])
      AND t."tagType" || ':' || t."tagValue" = ANY(${keys}::text[])
    GROUP BY t."featureName" HAVING count(*) >= ${needed}`;
}

/** Flags using at least `needed` of the named segments in any strategy (any environment). */
export function flagsWithSegments(names: string[]) {
  return (needed: number) => sql`SELECT fs."featureName" FROM "FeatureStrategy" fs
    JOIN "FeatureStrategySegment" fss ON fss."strategyId" = fs.id
    JOIN "Segment" s ON s.id = fss."segmentId"
    WHERE s.name = ANY(${names}::text[])
    GROUP BY fs."featureName" HAVING count(DISTINCT s.id) >= ${needed}`;
}

/** The flag's current lifecycle stage among the active ones (highest precedence entered). */
export const CURRENT_STAGE = sql`(SELECT l.stage FROM "FeatureLifecycle" l
  WHERE l."featureName" = f.name AND l.stage <> 'archived'
  ORDER BY array_position(ARRAY['initial','pre-live','live','completed']::text[], l.stage) DESC NULLS LAST
  LIMIT 1)`;

/** Latest metrics seen for the flag in any environment, else the flag-level value. */
export const LAST_SEEN = sql`COALESCE((SELECT max(fe."lastSeenAt") FROM "FeatureEnvironment" fe
  WHERE fe."featureName" = f.name), f."lastSeenAt")`;

/** Whether the flag is enabled in `environment` (null when the flag has no such environment). */
export function enabledIn(environment: string): Sql {
  return sql`(SELECT fe.enabled FROM "FeatureEnvironment" fe
    WHERE fe."featureName" = f.name AND fe."environmentName" = ${environment})`;
}

/** True when `userId` favourited flag `f`. */
export function favoriteOf(userId: number): Sql {
  return sql`EXISTS (SELECT 1 FROM "FavoriteFeature" ff WHERE ff."userId" = ${userId} AND ff."featureName" = f.name)`;
}
