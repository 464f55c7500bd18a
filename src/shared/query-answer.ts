import { isDeepStrictEqual } from "node:util";

/**
 * Whether a row a write already holds answers a `prismaField` as reading it back with the
 * field's planned `query` would: the query includes no relation but those of `loaded` (each
 * with the very selection the row's value was read or built with), and selects no subset of
 * columns. A write that returns its row then saves the model query that reads it back; a
 * selection asking for more is read back as before.
 */
export function rowAnswersQuery(query: object, loaded: Record<string, unknown> = {}): boolean {
  const { include, select, ...rest } = query as { include?: Record<string, unknown>; select?: unknown };
  if (select !== undefined || Object.keys(rest).length > 0) return false;
  return Object.entries(include ?? {}).every(
    ([relation, selection]) => relation in loaded && isDeepStrictEqual(selection, loaded[relation]),
  );
}
