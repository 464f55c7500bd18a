import type pg from "pg";
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

/**
 * Resolves once a statement like `statementLike` (a LIKE pattern) waits on a lock in this
 * database, or once `pending` (the request that should come to wait) has settled anyway, were
 * it not to wait. For a test that holds a lock in its own transaction and must release it only
 * after the request under test waits on it; polls `pg_stat_activity`, no sleeps.
 */
export async function untilWaitingOnLock(pool: pg.Pool, pending: Promise<unknown>, statementLike: string) {
  let settled = false;
  void pending.finally(() => {
    settled = true;
  });
  while (!settled) {
    const waiting = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
      [statementLike],
    );
    if ((waiting.rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
