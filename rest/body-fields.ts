import type { z } from "zod";
import { ValidationError } from "../src/shared/errors.ts";
import { unknownFieldProblem } from "../src/shared/http-body.ts";
import type { RestRequest } from "./route.ts";
import { isRecord } from "./shape.ts";

/** A body field that its route's schema does not allow, where the schema refuses unknown fields. */
export type UnknownField = ReturnType<typeof unknownFieldProblem>;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);

/**
 * The fields of `body` that a strict object of the route's body schema (`z.strictObject`, shown as
 * `additionalProperties: false` in the OpenAPI document) does not know, at any depth. Unleash
 * refuses those with a 400; other objects keep ignoring unknown fields (the variables builders
 * and `restVariables` drop them). Only the keys are checked: GraphQL still validates the values.
 */
export function unknownBodyFields(schema: z.ZodType | undefined, body: unknown, path = ""): UnknownField[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return unknownBodyFields(def.innerType, body, path);
  if (def.type === "pipe" && def.in) return unknownBodyFields(def.in, body, path);
  if (def.type === "lazy" && def.getter) return unknownBodyFields(def.getter(), body, path);
  if (def.type === "array" && Array.isArray(body))
    return body.flatMap((item, i) => unknownBodyFields(def.element, item, `${path}[${i}]`));
  if (def.type === "union") {
    // The value passes when one option takes all its keys; else the closest option's complaints.
    const found = (def.options ?? []).map((option) => unknownBodyFields(option, body, path));
    return found.find((f) => f.length === 0) ?? found.sort((a, b) => a.length - b.length)[0] ?? [];
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const entries = Object.entries(body);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (def.type === "record")
    return entries.flatMap(([key, value]) => unknownBodyFields(def.valueType, value, at(key)));
  if (def.type !== "object" || !def.shape) return [];
  const shape = def.shape;
  const strict = def.catchall !== undefined && defOf(def.catchall).type === "never";
  const known = Object.keys(shape);
  return entries.flatMap(([key, value]): UnknownField[] => {
    // Own fields only: `constructor` or `__proto__` must not find Object's members (a 500).
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (field) return unknownBodyFields(field, value, at(key));
    return strict ? [unknownFieldProblem(path, key, known)] : [];
  });
}

/** A JSON body's fields, or none when the body is not an object (GraphQL then names what is missing). */
export function bodyRecord(body: unknown): Record<string, unknown> {
  return isRecord(body) ? body : {};
}

/**
 * The keys of a JSON body that a GraphQL input knows, as sent (null kept, absent left out):
 * Unleash clients send extra keys the GraphQL input would reject (scripts often PUT back a whole
 * GET answer); REST checks no values (a strict body schema refuses unknown keys before this runs).
 */
export function bodyFields(body: unknown, keys: readonly string[]): Record<string, unknown> {
  const record = bodyRecord(body);
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(record, k)).map((k) => [k, record[k]]));
}

/** The JSON body as an object; a missing body or another JSON type is a malformed request (400). */
export function objectBody(req: RestRequest): Record<string, unknown> {
  if (!isRecord(req.body)) throw new ValidationError("The request body must be a JSON object.");
  return req.body;
}
