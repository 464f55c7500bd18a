import type { Tx } from "../../db/database.ts";
import type { TagTypePayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { NameExistsError, NotFoundError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import {
  type CreateTagTypeInput,
  createTagTypeSchema,
  tagSchema,
  type UpdateTagTypeInput,
  updateTagTypeSchema,
} from "./tag.inputs.ts";

type TagTypeRow = { name: string; description: string | null; icon: string | null; color: string | null };

/** The tag type as stored, the shape of `data`/`preData` of tag-type events. */
export function tagTypeRecord(t: TagTypeRow): TagTypePayload {
  return { name: t.name, description: t.description, icon: t.icon, color: t.color };
}

async function findTagType(tx: Tx, name: string) {
  const tagType = await tx.tagType.findUnique({ where: { name } });
  if (!tagType) throw new NotFoundError(`Could not find tag type "${name}"`);
  return tagType;
}

/** Creates a tag type. Records `tag-type-created`. Throws Validation, NameExists. */
export async function createTagType(w: Write, input: CreateTagTypeInput) {
  const data = parseInput(createTagTypeSchema, input);
  if (await w.tx.tagType.findUnique({ where: { name: data.name }, select: { name: true } })) {
    throw new NameExistsError(`A tag type with the name "${data.name}" already exists.`);
  }
  const tagType = await w.tx.tagType.create({
    data: {
      name: data.name,
      description: data.description ?? null,
      icon: data.icon ?? null,
      color: data.color ?? null,
      createdAt: w.now,
    },
  });
  await recordEvent(w, { type: "tag-type-created", data: tagTypeRecord(tagType) });
  return tagType;
}

/**
 * Creates the tag type unless one of that name exists (kept as it is): `tag-type-created` only
 * when this call created it. Safe against a concurrent creation of the same name (the insert
 * waits for it, then does nothing), as an import of the same file twice at once needs.
 */
export async function ensureTagType(w: Write, input: CreateTagTypeInput): Promise<boolean> {
  const data = parseInput(createTagTypeSchema, input);
  const row = {
    name: data.name,
    description: data.description ?? null,
    icon: data.icon ?? null,
    color: data.color ?? null,
  };
  const created = await w.tx.tagType.createMany({
    data: [{ ...row, createdAt: w.now }],
    skipDuplicates: true,
  });
  if (created.count === 0) return false;
  await recordEvent(w, { type: "tag-type-created", data: tagTypeRecord(row) });
  return true;
}

/** Changes description, icon or colour. Records `tag-type-updated` (nothing when unchanged). */
export async function updateTagType(w: Write, name: string, input: UpdateTagTypeInput) {
  await lockRow(w.tx, "TagType", name);
  const data = parseInput(updateTagTypeSchema, input);
  const before = await findTagType(w.tx, name);
  const changes = Object.fromEntries(
    Object.entries(data)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v ?? null]),
  ) as Partial<TagTypeRow>;
  const preData = tagTypeRecord(before);
  if (JSON.stringify(tagTypeRecord({ ...before, ...changes })) === JSON.stringify(preData)) return before;
  const after = await w.tx.tagType.update({ where: { name }, data: changes });
  await recordEvent(w, { type: "tag-type-updated", data: tagTypeRecord(after), preData });
  return after;
}

/**
 * Deletes a tag type with its tags, which also untags every flag that carried them (Unleash's
 * cascade). One `tag-type-deleted` event (preData: the type), no per-flag events.
 */
export async function deleteTagType(w: Write, name: string) {
  await lockRow(w.tx, "TagType", name);
  const tagType = await findTagType(w.tx, name);
  await w.tx.tagType.delete({ where: { name } });
  await recordEvent(w, { type: "tag-type-deleted", preData: tagTypeRecord(tagType) });
  return tagType;
}

/** Creates a tag `{type, value}` (value trimmed, 2 to 50). Records `tag-created`. */
export async function createTag(w: Write, input: { type: string; value: string }) {
  const data = parseInput(tagSchema, input);
  await findTagType(w.tx, data.type);
  const key = { type_value: { type: data.type, value: data.value } };
  if (await w.tx.tag.findUnique({ where: key })) {
    throw new NameExistsError(`A tag of type "${data.type}" with the value "${data.value}" already exists.`);
  }
  const tag = await w.tx.tag.create({ data: { ...data, createdAt: w.now } });
  await recordEvent(w, { type: "tag-created", data: { type: tag.type, value: tag.value } });
  return tag;
}

/**
 * Makes sure the tag `{type, value}` exists before a flag carries it (tagging a flag, or a flag
 * created with tags): the type must exist (404); a value seen for the first time is created
 * with `tag-created`, as Unleash does. Safe when concurrent writers add the same new tag.
 * Answers the type's colour, which a flag's tag shows.
 */
export async function ensureTag(
  w: Write,
  tag: { type: string; value: string },
): Promise<{ color: string | null }> {
  // Raw, one statement: the type's check and the insert (tagging a flag is a frequent write,
  // and two model queries cost several times this statement's CPU in Prisma's runtime).
  // ON CONFLICT DO NOTHING: the same new tag may be added to other flags at this moment.
  const [row] = await sqlOf(w.tx).query<{ typeExists: boolean; created: boolean; color: string | null }>`
    WITH type AS (SELECT name, color FROM "TagType" WHERE name = ${tag.type}),
         created AS (
           INSERT INTO "Tag" ("type", "value", "createdAt")
           SELECT name, ${tag.value}, ${w.now}::timestamp(3) FROM type
           ON CONFLICT DO NOTHING RETURNING 1)
    SELECT EXISTS (SELECT FROM type) AS "typeExists", EXISTS (SELECT FROM created) AS "created",
           (SELECT color FROM type) AS color`;
  if (!row?.typeExists) throw new NotFoundError(`Could not find tag type "${tag.type}"`);
  if (row.created) {
    await recordEvent(w, { type: "tag-created", data: { type: tag.type, value: tag.value } });
  }
  return { color: row.color };
}

/** Deletes a tag, untagging every flag that carried it. Records `tag-deleted`. Throws NotFound. */
export async function deleteTag(w: Write, type: string, value: string) {
  const key = { type_value: { type, value } };
  const tag = await w.tx.tag.findUnique({ where: key });
  if (!tag) throw new NotFoundError(`Could not find tag "${type}:${value}"`);
  await w.tx.tag.delete({ where: key });
  await recordEvent(w, { type: "tag-deleted", preData: { type, value } });
  return tag;
}
