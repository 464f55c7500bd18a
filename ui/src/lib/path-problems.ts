import type { CombinedError } from "urql";
import type { ApiProblem } from "./errors.ts";

/**
 * The API's messages by the full path of the input they concern (`constraints.1.value`), and
 * the rest. The foundation's `problemOf` keys by the last segment only, which cannot tell the
 * second constraint's value from the first's; the strategy and variant editors need both.
 */
export type PathProblem = { byPath: Record<string, string>; general: string[] };

type Detail = { path?: string; message: string };

export function pathProblemOf(error: CombinedError | null | undefined): PathProblem | null {
  if (!error) return null;
  const byPath: Record<string, string> = {};
  const general: string[] = [];
  for (const e of error.graphQLErrors) {
    const details = ((e.extensions?.details as Detail[] | undefined) ?? []).filter((d) => d.path);
    for (const d of details) byPath[d.path as string] ??= d.message;
    if (details.length === 0) general.push(e.message);
  }
  if (error.networkError) general.push("The server could not be reached.");
  return { byPath, general };
}

/** The message for `path`, whether the API's path starts at the input or above it (`input.`). */
export function messageAt(problem: PathProblem | null | undefined, path: string): string | undefined {
  if (!problem) return undefined;
  if (problem.byPath[path]) return problem.byPath[path];
  const key = Object.keys(problem.byPath).find((p) => p.endsWith(`.${path}`));
  return key ? problem.byPath[key] : undefined;
}

/** The `Field` components' problem shape for one control, from a message found by path. */
export function fieldProblem(
  problem: PathProblem | null | undefined,
  path: string,
  name: string,
): ApiProblem {
  const message = messageAt(problem, path);
  return { fields: message ? { [name]: message } : {}, general: [] };
}
