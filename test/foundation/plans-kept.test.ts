import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";

/**
 * D-09: statements run as named prepared statements, so each connection plans them once.
 * PostgreSQL plans a prepared statement with its values for its first five runs, then keeps a
 * generic plan only if that plan's estimate is no dearer: a statement whose generic estimate is
 * off (an array parameter it assumes holds 100 values) is planned at every run, which cost more
 * than running it. A toggle, the most frequent write, must run on kept plans only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type PreparedStatement = { statement: string; generic_plans: number; custom_plans: number };

/** The named statements every connection of the app's pool has prepared, with their plan counts. */
async function preparedStatements(pool: NonNullable<TestApp["database"]["pool"]>) {
  const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
  try {
    const rows = await Promise.all(
      clients.map((client) =>
        client.query<PreparedStatement>(
          "SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements",
        ),
      ),
    );
    return rows.flatMap((r) => r.rows);
  } finally {
    for (const client of clients) client.release();
  }
}

describe("a toggle runs on kept plans (PostgreSQL)", () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    "after the first five runs of each statement, none is planned again: the record's facts included",
    async () => {
      await createFlag(t, "planned");
      const path = "/api/admin/projects/default/features/planned/environments/development";
      // One at a time, so the pool hands the same connection back and each statement runs there
      // more than five times: changing toggles (lock, update, event, record) and repeated ones.
      for (let i = 0; i < 10; i++) {
        for (const state of ["on", "off", "off"]) {
          const answer = await t.rest("POST", `${path}/${state}`);
          expect(answer).toMatchObject({ status: 200, body: { name: "planned" } });
        }
      }
      const statements = await preparedStatements(t.database.pool!);
      const facts = statements.filter((s) => s.statement.includes('"FavoriteFeature"'));
      expect(facts.reduce((sum, s) => sum + s.generic_plans + s.custom_plans, 0)).toBeGreaterThanOrEqual(30);
      expect(replanned(statements)).toEqual([]);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "a dataset loader's calls (create, strategies with constraints, tags) run on kept plans",
    async () => {
      for (let i = 0; i < 8; i++) {
        const name = `loaded-${i}`;
        const base = `/api/admin/projects/default/features/${name}`;
        expect((await t.rest("POST", "/api/admin/projects/default/features", { name })).status).toBe(201);
        const strategy = {
          name: "flexibleRollout",
          parameters: { rollout: "50", stickiness: "default", groupId: name },
          constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
        };
        expect((await t.rest("POST", `${base}/environments/development/strategies`, strategy)).status).toBe(
          200,
        );
        const tag = { type: "simple", value: `team-${i}` };
        expect((await t.rest("POST", `/api/admin/features/${name}/tags`, tag)).status).toBe(201);
      }
      const statements = await preparedStatements(t.database.pool!);
      expect(replanned(statements)).toEqual([]);
      // Tagging starts with the flag's row lock, a short statement: prepared too, not planned per call.
      const rowLock = statements.filter((s) => /WHERE name = \$1 FOR NO KEY UPDATE\s*$/.test(s.statement));
      expect(rowLock.reduce((sum, s) => sum + s.generic_plans + s.custom_plans, 0)).toBeGreaterThanOrEqual(8);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "a flag read at an instant (time travel) runs on kept plans",
    async () => {
      await createFlag(t, "travelled");
      const at = new Date().toISOString();
      const query = `query($at: DateTime!) { featureAt(name: "travelled", at: $at) { name } }`;
      for (let i = 0; i < 8; i++) {
        const { data, errors } = await t.gql(query, { at });
        expect(errors).toBeUndefined();
        expect(data).toEqual({ featureAt: { name: "travelled" } });
      }
      expect(replanned(await preparedStatements(t.database.pool!))).toEqual([]);
    },
  );
});

describe("sessions without JIT (PostgreSQL)", () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    "every connection of the pool runs with jit off: no statement is compiled before it runs",
    async () => {
      const pool = t.database.pool!;
      const clients = await Promise.all(Array.from({ length: 3 }, () => pool.connect()));
      try {
        const settings = await Promise.all(clients.map((c) => c.query<{ jit: string }>("SHOW jit")));
        expect(settings.map((r) => r.rows[0]?.jit)).toEqual(["off", "off", "off"]);
      } finally {
        for (const client of clients) client.release();
      }
      const [viaPrisma] = await t.deps.db.$queryRawUnsafe<{ jit: string }[]>("SHOW jit");
      expect(viaPrisma?.jit).toBe("off");
    },
  );
});

/** The statements PostgreSQL planned again after their first five runs (none should be). */
function replanned(statements: PreparedStatement[]) {
  return statements
    .filter((s) => s.custom_plans > 5)
    .map((s) => `${s.custom_plans} custom plans: ${s.statement.replace(/\s+/g, " ").slice(0, 120)}`);
}
