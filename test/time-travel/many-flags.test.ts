// A snapshot or a diff of more flags than one statement reads (FLAGS_PER_STATEMENT): the slices,
// read a few at once, come back whole and in order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { flagRecordJson } from "../../src/modules/flag-record/flag-record.read.ts";
import { historyColumns } from "../../src/modules/time-travel/flag-history.write.ts";
import { FLAGS_PER_STATEMENT } from "../../src/modules/time-travel/history.read.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const FLAGS = FLAGS_PER_STATEMENT * 4 + 37;
const T0 = "2026-06-01T00:00:00.000Z";
const T1 = "2026-06-01T01:00:00.000Z";
/** Each flag with its FlagRecord `r.s`, and the history columns of that record. */
// Fragments without values, so their text goes into the statements below as it is.
const RECORDS = `"Feature" f CROSS JOIN LATERAL (SELECT ${flagRecordJson(Prisma.sql`f`, { as: "jsonb" }).sql} AS s) r`;
const HISTORY_COLUMNS = historyColumns(Prisma.sql`r.s`).sql;
const name = (i: number) => `bulk-${String(i).padStart(5, "0")}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Direct write: thousands of flags, each with its history, in a few statements; through the
  // API they would take minutes.
  const sql = (text: string) => t.database.prisma.$executeRawUnsafe(text);
  await sql(`INSERT INTO "ProjectEnvironment" ("projectId", "environmentName")
             VALUES ('default', 'production') ON CONFLICT DO NOTHING`);
  await sql(`INSERT INTO "Feature" (name, "projectId", "createdAt")
             SELECT 'bulk-' || lpad(i::text, 5, '0'), 'default', timestamp '${T0}'
               FROM generate_series(0, ${FLAGS - 1}) i`);
  await sql(`INSERT INTO "FeatureEnvironment" ("featureName", "environmentName", enabled)
             SELECT name, 'production', false FROM "Feature" WHERE name LIKE 'bulk-%'`);
  // As the recorder writes them: each flag at its creation, then every third one turned on.
  await sql(`INSERT INTO "FeatureStateVersion" ("featureName", "eventType", "projectId", "createdBy", "createdAt",
                                                state, environments)
             SELECT name, 'feature-created', 'default', 'bulk', timestamp '${T0}', ${HISTORY_COLUMNS}
               FROM ${RECORDS} WHERE name LIKE 'bulk-%'`);
  await sql(`UPDATE "FeatureEnvironment" SET enabled = true
              WHERE "featureName" LIKE 'bulk-%' AND substr("featureName", 6)::int % 3 = 0`);
  await sql(`INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", environment, "projectId",
                                                "createdBy", "createdAt", state, environments)
             SELECT name, 1000000 + substr(name, 6)::int, 'feature-environment-enabled', 'production', 'default',
                    'bulk', timestamp '${T1}', ${HISTORY_COLUMNS}
               FROM ${RECORDS}
              WHERE name LIKE 'bulk-%' AND substr(name, 6)::int % 3 = 0`);
});
afterAll(() => t.close());

describe(`time travel over ${FLAGS} flags`, () => {
  it("lists every flag of the environment once, in name order, as it was", async () => {
    const res = await t.gql<{
      environmentSnapshot: { features: { name: string; state: { environments: { enabled: boolean }[] } }[] };
    }>(`{ environmentSnapshot(project: "default", environment: "production", at: "${T1}") {
          features { name state { environments { enabled } } } } }`);
    expect(res.errors).toBeUndefined();
    const features = res.data!.environmentSnapshot.features;
    expect(features.map((f) => f.name)).toEqual(Array.from({ length: FLAGS }, (_, i) => name(i)));
    expect(features.map((f) => f.state.environments[0]?.enabled)).toEqual(
      Array.from({ length: FLAGS }, (_, i) => i % 3 === 0),
    );
  });

  it("diffs every flag that changed, each with its own event", async () => {
    const res = await t.gql<{
      changes: {
        name: string;
        fields: { field: string; before: unknown; after: unknown; events: { id: number }[] }[];
      }[];
    }>(`{ changes(project: "default", environment: "production", from: "${T0}", to: "${T1}") {
          name fields { field before after events { id } } } }`);
    expect(res.errors).toBeUndefined();
    const changed = Array.from({ length: FLAGS }, (_, i) => i).filter((i) => i % 3 === 0);
    expect([...res.data!.changes].sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(
      changed.map((i) => ({
        name: name(i),
        fields: [{ field: "enabled", before: false, after: true, events: [{ id: 1_000_000 + i }] }],
      })),
    );
  });
});
