// The migration that splits a version's environments out of its state keeps the history written
// before it (baselines included): the server started on such a database rebuilds the same past.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPostgres } from "../../src/db/database.ts";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { emptyPglite } from "../helpers/database.ts";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";
import { startServerProcess } from "../helpers/server-process.ts";

const SPLIT = "20261125171430_feature_state_environments";
const TOKEN = "*:*.time-travel-migration-admin-secret";
const T0 = "2026-06-01T00:00:00.000Z";
const T1 = "2026-06-01T01:00:00.000Z";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-tt-migration-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The migrations up to the one before SPLIT, as a folder of their own. */
async function migrationsBeforeSplit(): Promise<string> {
  const copy = join(dir, "migrations");
  await cp(MIGRATIONS_DIR, copy, { recursive: true });
  const { migrationDirectories } = await readMigrations(copy);
  for (const m of migrationDirectories.filter((m) => m.path >= SPLIT)) {
    await rm(join(copy, m.path), { recursive: true });
  }
  return copy;
}

/** History as the previous layout wrote it: a baseline of `old-flag`, then a toggle in production. */
async function writeOldHistory(db: Database) {
  // Direct write: rows in the layout before the migration, which no running version writes.
  const sql = (text: string) => db.prisma.$executeRawUnsafe(text);
  await sql(
    `INSERT INTO "Project" (id, name, "createdAt") VALUES ('default', 'Default', now()) ON CONFLICT DO NOTHING`,
  );
  await sql(`INSERT INTO "Environment" (name, type) VALUES ('development', 'development'),
             ('production', 'production') ON CONFLICT DO NOTHING`);
  await sql(`INSERT INTO "FeatureType" (id, name) VALUES ('release', 'Release') ON CONFLICT DO NOTHING`);
  await sql(`INSERT INTO "ProjectEnvironment" ("projectId", "environmentName")
             VALUES ('default', 'development'), ('default', 'production') ON CONFLICT DO NOTHING`);
  await sql(`INSERT INTO "Feature" (name, "projectId", "createdAt", description)
             VALUES ('old-flag', 'default', timestamp '${T0}' - interval '1 day', 'from before')`);
  await sql(`INSERT INTO "FeatureEnvironment" ("featureName", "environmentName", enabled)
             VALUES ('old-flag', 'development', true), ('old-flag', 'production', false)`);
  await sql(`INSERT INTO "FeatureStateVersion" ("featureName", "createdAt", baseline, "projectId", state)
             VALUES ('old-flag', timestamp '${T0}', true, 'default', vexil_flag_state('old-flag'))`);
  await sql(`INSERT INTO "Event" (id, type, "createdAt", "createdBy", project, environment, "featureName")
             VALUES (1, 'feature-environment-enabled', timestamp '${T1}', 'alice', 'default', 'production', 'old-flag')`);
  await sql(`INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", environment, "projectId",
                                                "createdBy", "createdAt", state)
             SELECT 'old-flag', 1, 'feature-environment-enabled', 'production', 'default', 'alice', timestamp '${T1}',
                    jsonb_set(state, '{environments,1,enabled}', 'true')
               FROM "FeatureStateVersion" WHERE baseline`);
  await sql(`UPDATE "FeatureEnvironment" SET enabled = true WHERE "featureName" = 'old-flag'`);
}

describe("time travel across the migration of the version layout", { timeout: 180_000 }, () => {
  it("rebuilds flags, environments and diffs from versions written before it", async () => {
    const postgres = await emptyPostgresDatabase();
    const dataDir = join(dir, "data");
    const db = postgres ? openPostgres(postgres.url) : openPglite(await emptyPglite(dataDir));
    await applyMigrations(db.adapterFactory, { dir: await migrationsBeforeSplit() });
    await writeOldHistory(db);
    await db.close();

    const server = await startServerProcess({
      ...(postgres ? { DATABASE_URL: postgres.url } : { DATABASE_URL: "", VEXIL_DATA_DIR: dataDir }),
      INIT_ADMIN_API_TOKENS: TOKEN,
      INIT_ADMIN_PASSWORD: "Some-Password-1",
    });
    try {
      const gql = async (query: string) => {
        const res = await fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: { authorization: TOKEN, "content-type": "application/json" },
          body: JSON.stringify({ query }),
        });
        const body = (await res.json()) as { data?: any; errors?: unknown };
        expect(body.errors).toBeUndefined();
        return body.data;
      };
      const at = (instant: string) =>
        gql(`{ featureAt(name: "old-flag", at: "${instant}") {
                 exact exactSince state { description environments { name enabled strategies { name } } } } }`);
      expect((await at("2026-05-31T23:00:00.000Z")).featureAt).toEqual({
        exact: false,
        exactSince: T0,
        state: null,
      });
      expect((await at(T0)).featureAt).toEqual({
        exact: true,
        exactSince: T0,
        state: {
          description: "from before",
          environments: [
            { name: "development", enabled: true, strategies: [] },
            { name: "production", enabled: false, strategies: [] },
          ],
        },
      });
      expect((await at(T1)).featureAt.state.environments[1]).toEqual({
        name: "production",
        enabled: true,
        strategies: [],
      });
      const snapshot =
        await gql(`{ environmentSnapshot(project: "default", environment: "production", at: "${T1}") {
          exactSince features { name state { description environments { name enabled } } } } }`);
      expect(snapshot.environmentSnapshot).toEqual({
        exactSince: T0,
        features: [
          {
            name: "old-flag",
            state: { description: "from before", environments: [{ name: "production", enabled: true }] },
          },
        ],
      });
      const changes =
        await gql(`{ changes(project: "default", environment: "production", from: "${T0}", to: "${T1}") {
          name fields { field environment before after moreEvents events { id createdBy createdAt } } } }`);
      expect(changes.changes).toEqual([
        {
          name: "old-flag",
          fields: [
            {
              field: "enabled",
              environment: "production",
              before: false,
              after: true,
              moreEvents: false,
              events: [{ id: 1, createdBy: "alice", createdAt: T1 }],
            },
          ],
        },
      ]);
    } finally {
      await server.stop();
      await postgres?.drop();
    }
  });
});
