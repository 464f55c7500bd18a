import { expect } from "vitest";
import type { Prisma } from "../../src/generated/prisma/client.ts";
import type { TestApp } from "./app.ts";

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

export type EventWhere = Prisma.EventWhereInput;

/**
 * The stored events of one type (narrowed by `where`, e.g. a flag or a JSON path of `data`),
 * oldest first, read from the database: a race's outcome is counted in what was committed.
 */
export const storedEvents = (t: TestApp, type: string, where: EventWhere = {}) =>
  t.database.prisma.event.findMany({ where: { type, ...where }, orderBy: { id: "asc" } });
