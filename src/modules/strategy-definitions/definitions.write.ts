import type { StrategyDefinitionPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { InvalidOperationError, NameExistsError, NotFoundError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { createDefinitionInput, updateDefinitionInput } from "./definition.inputs.ts";

/**
 * Strategy types (Unleash's strategy definitions). The built-ins cannot be changed or deleted,
 * only deprecated and reactivated; custom ones are definitions SDKs implement (Vexil's own
 * evaluation treats a strategy type it does not know as off, as an SDK without it does).
 */

type Row = {
  name: string;
  displayName: string | null;
  title: string | null;
  description: string | null;
  builtIn: boolean;
  deprecated: boolean;
  parameters: unknown;
};

/** What events say about a definition. */
function eventData(d: Row): StrategyDefinitionPayload {
  return {
    name: d.name,
    title: d.title,
    description: d.description,
    editable: !d.builtIn,
    deprecated: d.deprecated,
    // Written from the validated input (definition.inputs.ts).
    parameters: d.parameters as StrategyDefinitionPayload["parameters"],
  };
}

async function existing(w: Write, name: string) {
  await lockRow(w.tx, "StrategyDefinition", name);
  const row = await w.tx.strategyDefinition.findUnique({ where: { name } });
  if (!row) throw new NotFoundError(`Could not find strategy type with name ${name}`);
  return row;
}

function assertEditable(row: Row) {
  if (row.builtIn) throw new InvalidOperationError(`Cannot change the built-in strategy ${row.name}`);
}

/** Creates a custom strategy type (records strategy-created); a taken name is NAME_EXISTS. */
export async function createDefinition(w: Write, raw: unknown) {
  const input = parseInput(createDefinitionInput, raw);
  if (await w.tx.strategyDefinition.findUnique({ where: { name: input.name } })) {
    throw new NameExistsError(`A strategy with name ${input.name} already exists`);
  }
  // a concurrent create of the same name fails on the primary key: 409 too (runWrite)
  const row = await w.tx.strategyDefinition.create({
    data: {
      name: input.name,
      title: input.title ?? null,
      description: input.description ?? null,
      parameters: input.parameters as Prisma.InputJsonValue,
      createdAt: w.now,
    },
  });
  await recordEvent(w, { type: "strategy-created", data: eventData(row) });
  return row;
}

/** Replaces a custom type's description, title and parameters (strategy-updated; none if unchanged). */
export async function updateDefinition(w: Write, name: string, raw: unknown) {
  const before = await existing(w, name);
  assertEditable(before);
  const input = parseInput(updateDefinitionInput, raw);
  const row = await w.tx.strategyDefinition.update({
    where: { name },
    data: {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      parameters: input.parameters as Prisma.InputJsonValue,
    },
  });
  await recordEvent(w, { type: "strategy-updated", data: eventData(row), preData: eventData(before) });
  return row;
}

/** Deletes a custom type (strategy-deleted). Flags' strategies of that type stay, as in Unleash. */
export async function deleteDefinition(w: Write, name: string) {
  const before = await existing(w, name);
  assertEditable(before);
  await w.tx.strategyDefinition.delete({ where: { name } });
  await recordEvent(w, { type: "strategy-deleted", preData: eventData(before), data: { name } });
}

/** Marks a type deprecated or active again (strategy-deprecated / -reactivated; none if already so). */
export async function setDeprecated(w: Write, name: string, deprecated: boolean) {
  const before = await existing(w, name);
  if (before.deprecated === deprecated) return before;
  const row = await w.tx.strategyDefinition.update({ where: { name }, data: { deprecated } });
  await recordEvent(w, { type: deprecated ? "strategy-deprecated" : "strategy-reactivated", data: { name } });
  return row;
}
