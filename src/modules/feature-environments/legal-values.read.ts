import type { Tx } from "../../db/database.ts";
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
  const names = [...new Set(constraints.map((c) => c.contextName))];
  if (names.length === 0) return;
  const fields = await tx.contextField.findMany({
    where: { name: { in: names }, OR: [{ projectId: null }, ...(project ? [{ projectId: project }] : [])] },
  });
  const legal = new Map(
    fields
      .map((f) => [f.name, (f.legalValues as { value: string }[]).map((v) => v.value)] as const)
      .filter(([, values]) => values.length > 0),
  );
  assertLegalValues(constraints, legal, path);
}
