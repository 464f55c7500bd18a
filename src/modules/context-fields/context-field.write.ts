import type { Tx } from "../../db/database.ts";
import type { ContextFieldPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { NameExistsError, NotFoundError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { findProject } from "../projects/project.read.ts";
import {
  type CreateContextFieldInput,
  createContextFieldSchema,
  type UpdateContextFieldInput,
  updateContextFieldSchema,
} from "./context-field.inputs.ts";

export type LegalValue = { value: string; description?: string | null };
type ContextFieldRow = {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: unknown;
  projectId?: string | null;
};

/**
 * The context field as stored, the shape of `data`/`preData` of context-field events;
 * `project` only for a project-scoped field (Unleash's contextFieldSchema).
 */
export function contextFieldRecord(f: ContextFieldRow): ContextFieldPayload {
  return {
    name: f.name,
    description: f.description,
    stickiness: f.stickiness,
    sortOrder: f.sortOrder,
    legalValues: f.legalValues as LegalValue[],
    ...(f.projectId ? { project: f.projectId } : {}),
  };
}

/**
 * Which fields an operation reaches: `undefined` any field by its (instance-wide unique)
 * name, a project id only that project's fields (another project's or a root field is
 * NOT_FOUND there, so a project's routes never touch what is not theirs).
 */
export type ContextFieldScope = string | undefined;

/** Legal values keep a description only when one was given (Unleash's shape). */
function storedLegalValues(values: { value: string; description?: string | null }[]): LegalValue[] {
  return values.map((v) =>
    v.description ? { value: v.value, description: v.description } : { value: v.value },
  );
}

export async function findContextField(tx: Tx, name: string, scope?: ContextFieldScope) {
  const field = await tx.contextField.findUnique({ where: { name } });
  if (!field || (scope !== undefined && field.projectId !== scope)) {
    throw new NotFoundError(
      `Could not find context field "${name}"${scope !== undefined ? ` in project "${scope}"` : ""}`,
    );
  }
  return field;
}

/** Creates a context field. Records `context-field-created`. Throws Validation, NameExists. */
export async function createContextField(w: Write, input: CreateContextFieldInput) {
  const { project, ...data } = parseInput(createContextFieldSchema, input);
  if (project) await findProject(w.tx, project);
  if (await w.tx.contextField.findUnique({ where: { name: data.name }, select: { name: true } })) {
    throw new NameExistsError(`A context field with the name "${data.name}" already exists.`);
  }
  const field = await w.tx.contextField.create({
    data: {
      ...data,
      description: data.description ?? null,
      legalValues: storedLegalValues(data.legalValues),
      createdAt: w.now,
      projectId: project ?? null,
    },
  });
  await recordEvent(w, {
    type: "context-field-created",
    project: field.projectId,
    data: contextFieldRecord(field),
  });
  return field;
}

/**
 * Creates the context field unless one of that name exists (kept as it is):
 * `context-field-created` only when this call created it. Safe against a concurrent creation
 * of the same name (the insert waits for it, then does nothing). Throws Validation.
 */
export async function ensureContextField(w: Write, input: CreateContextFieldInput): Promise<boolean> {
  const { project: _root, ...data } = parseInput(createContextFieldSchema, input);
  const row = {
    ...data,
    description: data.description ?? null,
    legalValues: storedLegalValues(data.legalValues),
  };
  const created = await w.tx.contextField.createMany({
    data: [{ ...row, createdAt: w.now }],
    skipDuplicates: true,
  });
  if (created.count === 0) return false;
  await recordEvent(w, { type: "context-field-created", data: contextFieldRecord(row) });
  return true;
}

/**
 * Changes description, stickiness, sortOrder or the legal values (replaced as a whole).
 * Records `context-field-updated` (nothing when unchanged). Throws NotFound, Validation.
 */
export async function updateContextField(
  w: Write,
  name: string,
  input: UpdateContextFieldInput,
  scope?: ContextFieldScope,
) {
  await lockRow(w.tx, "ContextField", name);
  const data = parseInput(updateContextFieldSchema, input);
  const before = await findContextField(w.tx, name, scope);
  const changes = {
    ...(data.description !== undefined ? { description: data.description ?? null } : {}),
    ...(data.stickiness !== undefined ? { stickiness: data.stickiness } : {}),
    ...(data.sortOrder !== undefined ? { sortOrder: data.sortOrder } : {}),
    ...(data.legalValues !== undefined ? { legalValues: storedLegalValues(data.legalValues) } : {}),
  };
  const preData = contextFieldRecord(before);
  if (JSON.stringify(contextFieldRecord({ ...before, ...changes })) === JSON.stringify(preData))
    return before;
  const after = await w.tx.contextField.update({ where: { name }, data: changes });
  await recordEvent(w, {
    type: "context-field-updated",
    project: after.projectId,
    data: contextFieldRecord(after),
    preData,
  });
  return after;
}

/**
 * Deletes a context field. Constraints that name it stay as they are (as Unleash): they simply
 * never match a context without that field. Records `context-field-deleted` with the deleted
 * field as preData. Throws NotFound.
 */
export async function deleteContextField(w: Write, name: string, scope?: ContextFieldScope) {
  await lockRow(w.tx, "ContextField", name);
  const field = await findContextField(w.tx, name, scope);
  await w.tx.contextField.delete({ where: { name } });
  await recordEvent(w, {
    type: "context-field-deleted",
    project: field.projectId,
    preData: contextFieldRecord(field),
  });
  return field;
}

/**
 * Adds a legal value to a context field, or replaces the description of the one with that
 * value. Records `context-field-updated` (nothing when unchanged). Throws NotFound, Validation.
 */
export async function upsertLegalValue(
  w: Write,
  name: string,
  legalValue: LegalValue,
  scope?: ContextFieldScope,
) {
  await lockRow(w.tx, "ContextField", name);
  const values = (await findContextField(w.tx, name, scope)).legalValues as LegalValue[];
  const at = values.findIndex((v) => v.value === legalValue.value);
  const next = at === -1 ? [...values, legalValue] : values.map((v, i) => (i === at ? legalValue : v));
  return updateContextField(w, name, { legalValues: next }, scope);
}

/**
 * Removes a legal value from a context field (constraints that use it are left as they are, as
 * Unleash). Records `context-field-updated`; a value the field does not have records nothing.
 * Throws NotFound (field).
 */
export async function removeLegalValue(w: Write, name: string, value: string, scope?: ContextFieldScope) {
  await lockRow(w.tx, "ContextField", name);
  const values = (await findContextField(w.tx, name, scope)).legalValues as LegalValue[];
  return updateContextField(w, name, { legalValues: values.filter((v) => v.value !== value) }, scope);
}
