/** Small typed helpers for the wire shapes Unleash gives GraphQL results. */

/** `value` without those of `keys` whose value is null, the other keys in their order. */
export type WithoutNull<T, K extends keyof T> = Omit<T, K> & { [P in K]?: NonNullable<T[P]> };

/**
 * Unleash leaves out a field that has no value where GraphQL answers null: `value` without those
 * of `keys` that are null, every other key kept in its place (the answer's bytes follow the
 * document's order).
 */
export function withoutNull<T extends object, K extends keyof T>(value: T, ...keys: K[]): WithoutNull<T, K> {
  const dropped = new Set<PropertyKey>(keys);
  const kept = Object.entries(value).filter(([key, v]) => v !== null || !dropped.has(key));
  // The entries of `value` but those dropped: exactly the declared type.
  return Object.fromEntries(kept) as WithoutNull<T, K>;
}

/** A JSON object (not null, not a list): what a JSON value must be to have fields. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
