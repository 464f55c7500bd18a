import fastJsonPatch from "fast-json-patch";
import { z } from "zod";
import { ValidationError } from "./errors.ts";
import { parseInput } from "./validation.ts";

export const patchOperationSchema = z.object({
  op: z.enum(["add", "remove", "replace", "move", "copy", "test"]),
  path: z.string(),
  from: z.string().optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;
export const patchOperationsSchema = z.array(patchOperationSchema);

/**
 * Applies an RFC 6902 JSON Patch to a copy of `document` and returns the result. A malformed
 * operation, a path that does not exist or a failing `test` is a ValidationError naming the
 * operation's index.
 */
export function applyJsonPatch<T>(document: T, operations: unknown): T {
  const ops = parseInput(patchOperationsSchema, operations);
  try {
    return fastJsonPatch.applyPatch(structuredClone(document), ops as fastJsonPatch.Operation[], true, false)
      .newDocument;
  } catch (error) {
    const e = error as { index?: number; message: string };
    const message = e.message.split("\n")[0] ?? "";
    throw new ValidationError(`${e.index === undefined ? "" : `${e.index}: `}${message}`, [
      { path: e.index === undefined ? "" : String(e.index), message },
    ]);
  }
}
