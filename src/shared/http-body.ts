import { type ErrorDetail, PayloadTooLargeError, ValidationError } from "./errors.ts";
import { assertStorableText } from "./text-input.ts";

/**
 * Reads a request body as text, refusing it as soon as it is larger than `limit` bytes: a
 * declared `Content-Length` over the limit is refused before anything is read, and an
 * undeclared (chunked) body is read chunk by chunk and abandoned at the first byte past the
 * limit, so a 100 MB body never sits in memory.
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (!/^\d+$/.test(declared)) throw new ValidationError("The Content-Length header is invalid.");
    if (Number(declared) > limit) throw new PayloadTooLargeError(limit);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw new ValidationError("The request body is not valid UTF-8.");
  }
}

/** Refuses bytes that are not UTF-8 instead of reading them as U+FFFD (a different text). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Nesting of a parsed JSON value, counted without recursion (depth of `{}` or `[]` is 1). */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    const here = depth + 1;
    if (here > max) max = here;
    for (const child of Object.values(item)) stack.push([child, here]);
  }
  return max;
}

/** Deepest JSON nesting a request body or GraphQL variables may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * Parses a JSON body, refusing one nested deeper than MAX_JSON_DEPTH (400, not a stack overflow
 * later) or holding text PostgreSQL cannot store (NUL, a lone surrogate: 400, not a failed
 * statement later). Every HTTP surface (REST, SDK, frontend, OFREP, Edge, auth) reads its JSON
 * bodies here, so a public token's input is checked as an admin's is.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError("The request body is not valid JSON.");
  }
  return checkedJson(text, value);
}

/**
 * The checks read the JSON text, not the parsed value: one pass over the characters costs a
 * fifth of walking the objects, and a public token's metrics report (800 flags, 40 KB) is parsed
 * up to hundreds of times a second. Only a text that may hold NUL or a lone surrogate (an
 * escape of either) has its strings walked, to name the field.
 */
function checkedJson<T>(text: string, value: T): T {
  if (jsonTextDepth(text) > MAX_JSON_DEPTH) {
    throw new ValidationError(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  if (mayHoldUnstorableText(text)) assertStorableText(value);
  return value;
}

/**
 * Nesting of valid JSON text, as `jsonDepth` counts it for the parsed value (brackets inside
 * strings skipped). A repeated key's earlier value counts too, though parsing drops it.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) max = Math.max(max, ++depth);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return max;
}

const [QUOTE, BACKSLASH, OPEN_BRACE, OPEN_BRACKET, CLOSE_BRACE, CLOSE_BRACKET] = [...'"\\{[}]'].map((c) =>
  c.charCodeAt(0),
);

/**
 * Whether parsing `text` can give a string holding NUL or a lone surrogate: JSON text can only
 * spell them as escapes (`\u0000`, `\ud800`…), or hold a lone surrogate itself (not after a
 * strict UTF-8 decoding, but this function does not know where the text came from).
 */
function mayHoldUnstorableText(text: string): boolean {
  return UNSTORABLE_ESCAPE.test(text) || !(text as string & { isWellFormed(): boolean }).isWellFormed();
}

const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

function parseJsonObjectText(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError("The request body must be a JSON object.");
  }
  return checkedJson(text, body as Record<string, unknown>);
}

/**
 * A body field its schema does not list, where the schema refuses unknown fields (Unleash
 * answers those with a 400). `parent` is the object's own path (`""`: the body itself).
 */
export function unknownFieldProblem(
  parent: string,
  key: string,
  known: readonly string[],
): ErrorDetail & { path: string } {
  const path = parent ? `${parent}.${key}` : key;
  const where = parent ? `"${parent}"` : "the request body";
  return { path, message: `"${path}" is not a field of ${where} (its fields: ${known.join(", ")}).` };
}

/**
 * The body of a public endpoint (outside /api/admin) as a JSON object, with storable text only
 * (see parseJsonBody). Fields other than `fields` are a 400, as Unleash's schemas of these
 * bodies refuse them. `body` reads the text within the route's size limit (route-table.ts).
 */
export async function readJsonObject(
  body: { text(): Promise<string> },
  fields: readonly string[],
): Promise<Record<string, unknown>> {
  const parsed = parseJsonObjectText(await body.text());
  const unknown = Object.keys(parsed)
    .filter((key) => !fields.includes(key))
    .map((key) => unknownFieldProblem("", key, fields));
  if (unknown.length > 0) throw new ValidationError(unknown.map((u) => u.message).join(" "), unknown);
  return parsed;
}
