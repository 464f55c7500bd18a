import { ValidationError } from "./errors.ts";

/**
 * Text PostgreSQL can store as sent. It cannot hold the NUL character (U+0000) in `text` or
 * `jsonb`: a value holding it fails deep in a statement. A lone UTF-16 surrogate (`"\ud800"` in
 * JSON) has no UTF-8 form: it would be stored as U+FFFD, silently not what was sent. Every text
 * a caller sends is checked once at the boundary (JSON bodies of every HTTP surface, GraphQL
 * execution, which REST goes through too) and refused as a validation error.
 */
export type TextProblem = { path: string; reason: "nul" | "surrogate" };

const NUL = "\u0000";

/** Why `text` cannot be stored, or null when it can. */
function problemOf(text: string): TextProblem["reason"] | null {
  if (text.includes(NUL)) return "nul";
  return (text as string & { isWellFormed(): boolean }).isWellFormed() ? null : "surrogate";
}

/**
 * The first string (or object key) in `value` that cannot be stored, with its path (e.g.
 * `input.name`), or null when there is none. Walks without recursion, so any nesting is safe.
 */
export function unstorableText(value: unknown, root = ""): TextProblem | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [item, path] = stack.pop() as [unknown, string];
    if (typeof item === "string") {
      const reason = problemOf(item);
      if (reason) return { path, reason };
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
      const reason = problemOf(key);
      if (reason) return { path: childPath, reason };
      stack.push([child, childPath]);
    }
  }
  return null;
}

const WHY: Record<TextProblem["reason"], { short: string; long: string }> = {
  nul: {
    short: "text cannot hold the NUL character (\\u0000)",
    long: "the NUL character (\\u0000), which text cannot hold",
  },
  surrogate: {
    short: "text must be well-formed Unicode (a lone UTF-16 surrogate is not)",
    long: "a lone UTF-16 surrogate, which is not well-formed Unicode",
  },
};

export function unstorableTextError({ path, reason }: TextProblem): ValidationError {
  const where = path ? `"${path.replaceAll(NUL, "\\u0000")}"` : "A value";
  return new ValidationError(`${where} contains ${WHY[reason].long}.`, [
    { message: WHY[reason].short, ...(path ? { path: path.replaceAll(NUL, "\\u0000") } : {}) },
  ]);
}

/** Throws a ValidationError naming the first string of `value` that cannot be stored. */
export function assertStorableText(value: unknown, root = ""): void {
  const problem = unstorableText(value, root);
  if (problem !== null) throw unstorableTextError(problem);
}
