import { expect } from "vitest";

/** A REST answer as the concurrency tests look at it. */
export type Res = { status: number; body: any };

/** `n` calls of `fn` started at once (so they overlap on PostgreSQL), in call order. */
export const times = <T>(n: number, fn: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

/** A race may refuse a request, never fail it: no answer is a 5xx. */
export function expectNoServerError(results: Res[]) {
  const failed = results.filter((r) => r.status >= 500);
  expect(failed, JSON.stringify(failed[0]?.body)).toEqual([]);
}
