/**
 * One request's two answers compared: status, the response's key paths (recursively; values,
 * so ids and times, never compared; an error body's `id`, the request id the spec asks for, left
 * out) and, for errors, the `name`.
 */
import type { Answer } from "./fixtures.ts";

export type Outcome = {
  statusEqual: boolean;
  /** null: not compared (different statuses, or a body that is not JSON on either side). */
  keysEqual: boolean | null;
  nameEqual: boolean | null;
  vexil: { status: number; name?: string };
  unleash: { status: number; name?: string };
  /** Key paths only one side has. */
  onlyVexil: string[];
  onlyUnleash: string[];
};

/** Every key path of a JSON value: `a.b`, `list[].c`; array items merged. */
export function keyPaths(value: unknown, prefix = "", into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) keyPaths(item, `${prefix}[]`, into);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      into.add(path);
      keyPaths(inner, path, into);
    }
  }
  return into;
}

const errorName = (a: Answer) =>
  a.status >= 400 && a.body && typeof a.body === "object" && !Array.isArray(a.body)
    ? String((a.body as { name?: unknown }).name ?? "")
    : undefined;

function keysOf(answer: Answer): Set<string> {
  const paths = keyPaths(answer.body);
  if (answer.status >= 400) paths.delete("id");
  return paths;
}

export function compare(vexil: Answer, unleash: Answer): Outcome {
  const statusEqual = vexil.status === unleash.status;
  const bothJson = vexil.body !== undefined && unleash.body !== undefined;
  const bothEmpty = !vexil.text && !unleash.text;
  let onlyVexil: string[] = [];
  let onlyUnleash: string[] = [];
  let keysEqual: boolean | null = null;
  if (statusEqual && bothJson) {
    const ours = keysOf(vexil);
    const theirs = keysOf(unleash);
    onlyVexil = [...ours].filter((k) => !theirs.has(k)).sort();
    onlyUnleash = [...theirs].filter((k) => !ours.has(k)).sort();
    keysEqual = onlyVexil.length === 0 && onlyUnleash.length === 0;
  } else if (statusEqual && bothEmpty) keysEqual = true;
  else if (statusEqual && (vexil.body !== undefined) !== (unleash.body !== undefined)) keysEqual = false;
  const names = { vexil: errorName(vexil), unleash: errorName(unleash) };
  const nameEqual =
    vexil.status >= 400 || unleash.status >= 400
      ? names.vexil !== undefined && names.vexil === names.unleash
      : null;
  return {
    statusEqual,
    keysEqual,
    nameEqual,
    vexil: { status: vexil.status, ...(names.vexil !== undefined ? { name: names.vexil } : {}) },
    unleash: { status: unleash.status, ...(names.unleash !== undefined ? { name: names.unleash } : {}) },
    onlyVexil,
    onlyUnleash,
  };
}

export const isDifferent = (o: Outcome) => !o.statusEqual || o.keysEqual === false || o.nameEqual === false;
