import type { Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";
import { assertLegalValues } from "./constraints.logic.ts";
import type { Constraint } from "./strategy.types.ts";

/**
 * Context fields with legal values only accept those values (as Unleash): every value of a
 * constraint on such a field must be one of them. The fields are the root ones and, for a
 * strategy of `project`, that project's; another project's field is not seen (its name is then
 * as any name no field has).
 */
export async function checkLegalValues(
  tx: Tx,
  constraints: Constraint[],
  path = "constraints",
  project: string | null = null,
) {
  const names = contextNamesOf(constraints);
  if (names.length === 0) return;
  // Raw: a model query costs several times this statement's CPU in Prisma's runtime.
  const [row] = await sqlOf(tx).query<{ fields: ContextFieldValues[] }>`
    SELECT ${legalValuesSql(names, project)} AS fields`;
  assertLegalValues(constraints, legalValuesOf(row?.fields ?? []), path);
}

/** The context fields the constraints name, each once. */
export function contextNamesOf(constraints: { contextName: string }[]): string[] {
  return [...new Set(constraints.map((c) => c.contextName))];
}

export type ContextFieldValues = { name: string; legalValues: { value: string }[] };

/**
 * A subquery: the fields of `names` a constraint of `project` sees (root ones, and that
 * project's), as a jsonb array of `{name, legalValues}`, for a statement that reads more.
 */
export function legalValuesSql(names: string[], project: string | null): Prisma.Sql {
  return Prisma.sql`(
    SELECT COALESCE(jsonb_agg(jsonb_build_object('name', c.name, 'legalValues', c."legalValues")), '[]'::jsonb)
      FROM "ContextField" c
     WHERE c.name = ANY(${textArray(names)}) AND (c."projectId" IS NULL OR c."projectId" = ${project}))`;
}

/** Field name to its legal values, for the fields that have some (`assertLegalValues`' map). */
export function legalValuesOf(fields: ContextFieldValues[]): Map<string, string[]> {
  return new Map(
    fields
      .map((f) => [f.name, f.legalValues.map((v) => v.value)] as const)
      .filter(([, values]) => values.length > 0),
  );
}
