import { NotFoundError } from "./errors.ts";

/** `value`, or NotFoundError "Could not find <what>" when a lookup found nothing. */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new NotFoundError(`Could not find ${what}`);
  return value;
}
