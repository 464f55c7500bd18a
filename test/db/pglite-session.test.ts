import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PGLITE_TEMPLATE_DIR,
  PGLITE_THREAD_PORT,
  type PgliteThread,
  startPgliteThread,
} from "../../src/db/pglite-thread.ts";

/**
 * The embedded database as `npm start` serves it (its own thread, PostgreSQL's protocol on a Unix
 * socket) must answer a failed statement as PostgreSQL does: one NUL byte in a value once left
 * every later statement failing with 42P05 until a restart (src/db/pglite-session.ts).
 */
let dir: string;
let thread: PgliteThread;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-session-"));
  thread = await startPgliteThread(join(dir, "data"), PGLITE_TEMPLATE_DIR);
  await thread.serving;
});
afterAll(async () => {
  await thread.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({
    host: thread.socketDir,
    port: PGLITE_THREAD_PORT,
    user: "postgres",
    database: "postgres",
  });
  await client.connect();
  return client;
}

const named = (name: string, value: string) => ({
  name,
  text: "SELECT $1::text AS v, 'padding' AS p",
  values: [value],
});

describe("the embedded database's session after a failed statement", () => {
  it("a value PostgreSQL refuses (NUL) fails alone: queries sent right after it get their own answers", async () => {
    const client = await connect();
    try {
      // Sent together: node-postgres writes each as soon as the one before it is answered.
      const answers = await Promise.allSettled([
        client.query(named("session_a", "a\u0000b")),
        client.query(named("session_a", "second")),
        client.query("SELECT 3 AS n"),
        client.query(named("session_b", "fourth")),
      ]);
      expect(answers[0]).toMatchObject({ status: "rejected", reason: { code: "22021" } });
      expect(
        answers.slice(1).map((a) => (a.status === "fulfilled" ? a.value.rows[0] : a.reason.message)),
      ).toEqual([{ v: "second", p: "padding" }, { n: 3 }, { v: "fourth", p: "padding" }]);
    } finally {
      await client.end();
    }
  });

  it("an error while executing inside a transaction leaves it aborted until ROLLBACK, then all is well", async () => {
    const client = await connect();
    try {
      await client.query("BEGIN");
      await expect(
        client.query({ name: "session_div", text: "SELECT 1 / $1::int AS q", values: [0] }),
      ).rejects.toMatchObject({
        code: "22012",
      });
      await expect(client.query("SELECT 1")).rejects.toMatchObject({ code: "25P02" });
      await client.query("ROLLBACK");
      const again = await client.query({ name: "session_div", text: "SELECT 1 / $1::int AS q", values: [1] });
      expect(again.rows).toEqual([{ q: 1 }]);
    } finally {
      await client.end();
    }
  });

  it("a new connection starts a new session: no prepared statements, settings or open transaction of the last one", async () => {
    const first = await connect();
    await first.query(named("session_kept", "one"));
    await first.query("SET application_name = 'left-behind'");
    await first.query("BEGIN");
    await first.query("CREATE TEMP TABLE left_behind (x int)");
    await first.end();

    const second = await connect();
    try {
      expect((await second.query(named("session_kept", "two"))).rows).toEqual([{ v: "two", p: "padding" }]);
      expect((await second.query("SHOW application_name")).rows[0].application_name).not.toBe("left-behind");
      expect((await second.query("SELECT to_regclass('left_behind') AS t")).rows).toEqual([{ t: null }]);
      expect((await second.query("SELECT count(*)::int AS n FROM pg_prepared_statements")).rows).toEqual([
        { n: 1 },
      ]);
    } finally {
      await second.end();
    }
  });
});
