import { ValidationError } from "./errors.ts";

/**
 * PostgreSQL cannot store the NUL character (U+0000) in `text` or `jsonb`: a value holding it
 * fails deep in a statement. Every text a caller sends is checked once at the boundary
 * (GraphQL execution, which REST goes through too, and the `/auth/*` endpoints) and refused
 * as a validation error.
 */
const NUL = "\u0000";

/**
 * The path of the first string (or object key) in `value` holding NUL, e.g. `input.name`, or
 * null when there is none. Walks without recursion, so any nesting is safe.
 */
export function nulPath(value: unknown, root = ""): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [item, path] = stack.pop() as [unknown, string];
    if (typeof item === "string") {
      if (item.includes(NUL)) return path;
      continue;
    }
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) {
      item.forEach((child, i) => {
        stack.push([child, `${path}[${i}]`]);
      });
      continue;
    }
    for (const [key, child] of Object.entries(item)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes(NUL)) return childPath;
      stack.push([child, childPath]);
    }
  }
  return null;
}

export function nulError(path: string): ValidationError {
  const where = path ? `"${path}"` : "A value";
  return new ValidationError(`${where} contains the NUL character (\\u0000), which text cannot hold.`, [
    { message: "text cannot hold the NUL character (\\u0000)", ...(path ? { path } : {}) },
  ]);
}

/** Throws a ValidationError naming the first string of `value` that holds NUL. */
export function assertNoNul(value: unknown, root = ""): void {
  const path = nulPath(value, root);
  if (path !== null) throw nulError(path);
}
