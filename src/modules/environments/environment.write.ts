import type { EnvironmentPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import {
  InvalidOperationError,
  LimitExceededError,
  NameExistsError,
  NotFoundError,
} from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import {
  type CreateEnvironmentInput,
  createEnvironmentSchema,
  type UpdateEnvironmentInput,
  updateEnvironmentSchema,
} from "./environment.inputs.ts";

type EnvironmentRow = { name: string; type: string; enabled: boolean; protected: boolean; sortOrder: number };

/** The environment as stored, the shape of `data`/`preData` of environment events. */
export function environmentRecord(e: EnvironmentRow): EnvironmentPayload {
  return { name: e.name, type: e.type, enabled: e.enabled, protected: e.protected, sortOrder: e.sortOrder };
}

/**
 * Creates an environment, linked to no project (enable it per project). Records
 * `environment-created`. Throws Validation, NameExists, LimitExceeded (`environments`).
 */
export async function createEnvironment(w: Write, input: CreateEnvironmentInput, environmentLimit: number) {
  const data = parseInput(createEnvironmentSchema, input);
  if (await w.tx.environment.findUnique({ where: { name: data.name }, select: { name: true } })) {
    throw new NameExistsError(`An environment with the name "${data.name}" already exists.`);
  }
  await lockLimitedResource(w.tx, "environment");
  if ((await w.tx.environment.count()) >= environmentLimit) {
    throw new LimitExceededError("environment", environmentLimit);
  }
  const environment = await w.tx.environment.create({ data: { ...data, createdAt: w.now } });
  await recordEvent(w, {
    type: "environment-created",
    environment: environment.name,
    data: environmentRecord(environment),
  });
  return environment;
}

/** Changes type, sortOrder and/or enabled. Records `environment-updated` (nothing when unchanged). */
export async function updateEnvironment(w: Write, name: string, input: UpdateEnvironmentInput) {
  await lockRow(w.tx, "Environment", name);
  const data = parseInput(updateEnvironmentSchema, input);
  const before = await w.tx.environment.findUnique({ where: { name } });
  if (!before) throw new NotFoundError(`Could not find environment "${name}"`);
  const unchanged =
    (data.type ?? before.type) === before.type &&
    (data.sortOrder ?? before.sortOrder) === before.sortOrder &&
    (data.enabled ?? before.enabled) === before.enabled;
  if (unchanged) return before;
  const after = await w.tx.environment.update({ where: { name }, data });
  await recordEvent(w, {
    type: "environment-updated",
    environment: name,
    data: environmentRecord(after),
    preData: environmentRecord(before),
  });
  return after;
}

/** The environment `name`, locked until the end of the write; NotFound when there is none. */
export async function lockEnvironment(w: Write, name: string) {
  await lockRow(w.tx, "Environment", name);
  const environment = await w.tx.environment.findUnique({ where: { name } });
  if (!environment) throw new NotFoundError(`Could not find environment "${name}"`);
  return environment;
}

/**
 * Deletes the (locked) environment row, whatever still refers to it going with it (flag states
 * and strategies, project links: the caller removes those first, with their events). Records
 * `environment-deleted`. A protected environment is refused (InvalidOperation).
 */
export async function deleteEnvironmentRow(w: Write, environment: EnvironmentRow) {
  if (environment.protected) {
    throw new InvalidOperationError(
      `The environment "${environment.name}" is protected and cannot be deleted.`,
    );
  }
  await w.tx.environment.delete({ where: { name: environment.name } });
  await recordEvent(w, {
    type: "environment-deleted",
    environment: environment.name,
    preData: environmentRecord(environment),
  });
}
