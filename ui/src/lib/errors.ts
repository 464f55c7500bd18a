import type { CombinedError } from "urql";

/** What the API said went wrong, split into messages per input field and the rest. */
export type ApiProblem = { fields: Record<string, string>; general: string[] };

type Detail = { path?: string; message: string };

/**
 * Reads the API's typed errors (`extensions.code` and `extensions.details[{path, message}]`)
 * or a REST-style `{message, details}` body: details with a path belong to that field.
 */
export function problemOf(error: CombinedError | Error | null | undefined): ApiProblem | null {
  if (!error) return null;
  const fields: Record<string, string> = {};
  const general: string[] = [];
  const graphQLErrors = "graphQLErrors" in error ? error.graphQLErrors : [];
  for (const e of graphQLErrors) {
    const details = (e.extensions?.details as Detail[] | undefined) ?? [];
    const withPath = details.filter((d) => d.path);
    for (const d of withPath) fields[lastSegment(d.path as string)] ??= d.message;
    if (withPath.length === 0) general.push(e.message);
  }
  if ("networkError" in error && error.networkError) general.push("The server could not be reached.");
  if (!("graphQLErrors" in error)) general.push(error.message);
  return { fields, general };
}

/** `input.strategies.0.name` → `name`: forms name their controls by the last segment. */
function lastSegment(path: string): string {
  return (
    path
      .split(".")
      .filter((s) => !/^\d+$/.test(s))
      .pop() ?? path
  );
}
