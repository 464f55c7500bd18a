import type { PrismaClient } from "../src/generated/prisma/client.ts";
import { hashSecret } from "../src/modules/access/credentials.write.ts";

/**
 * A realistic dataset generated inside the database (generate_series), so 1,000,000 events
 * load in seconds rather than through a million round trips. Deterministic: values derive
 * from the row number. Every statement is fixed text plus numbers from the bench options.
 */
export type DatasetSize = { flags: number; projects: number; events: number };

export const BENCH_USER_TOKEN = `user:${"bench".padEnd(56, "0")}`;
/** The flag with a long history (1,928 events of the default million). */
export const HOT_FLAG = 1;
const TEAMS = "ARRAY['payments','search','growth','platform','mobile']";
const EVENT_TYPES =
  "ARRAY['feature-created','feature-updated','feature-environment-enabled','feature-environment-disabled','feature-strategy-update','feature-strategy-add','feature-tagged','feature-metadata-updated']";

export async function generateDataset(db: PrismaClient, size: DatasetSize, log: (m: string) => void) {
  const run = (statement: string) => db.$executeRawUnsafe(statement);
  const { flags, projects, events } = size;
  const projectOf = (i: string) => `'project-' || lpad(((${i}) % ${projects} + 1)::text, 2, '0')`;
  // flag-00001 .. flag-10000; wider from 100,000 flags on.
  const width = Math.max(5, String(flags).length);
  const flagName = (i: string) => `'flag-' || lpad((${i})::text, ${width}, '0')`;

  await run(
    `INSERT INTO "Environment"(name, type, "sortOrder") VALUES ('staging', 'test', 150) ON CONFLICT DO NOTHING`,
  );
  await run(
    `INSERT INTO "Project"(id, name) SELECT ${projectOf("g - 1")}, 'Project ' || g FROM generate_series(1, ${projects}) g`,
  );
  await run(`INSERT INTO "ProjectEnvironment"("projectId", "environmentName")
    SELECT p.id, e.name FROM "Project" p CROSS JOIN "Environment" e WHERE p.id LIKE 'project-%'`);
  const user = await db.user.create({
    data: { username: "bench", email: "bench@example.com", name: "Bench User" },
  });
  await db.personalAccessToken.create({
    data: {
      userId: user.id,
      description: "benchmark",
      secretHash: hashSecret(BENCH_USER_TOKEN),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });

  log(`flags: ${flags}`);
  await run(`INSERT INTO "Feature"(name, "projectId", type, description, stale, "potentiallyStale", "createdAt",
      "createdByUserId", "lastSeenAt", "archivedAt")
    SELECT ${flagName("i")}, ${projectOf("i")},
      (ARRAY['release','experiment','operational','kill-switch','permission'])[i % 5 + 1],
      'Flag ' || i || ' owned by team ' || (${TEAMS})[(i / 7) % 5 + 1],
      i % 20 = 0, i % 10 = 3,
      now() - ((${flags} - i) * interval '90 minutes'),
      CASE WHEN i % 4 = 0 THEN NULL ELSE ${user.id} END,
      CASE WHEN i % 3 = 0 THEN NULL ELSE now() - (i % 500) * interval '1 hour' END,
      CASE WHEN i % 50 = 0 THEN now() - interval '1 day' ELSE NULL END
    FROM generate_series(1, ${flags}) i`);
  const flagsWithNumber = `(SELECT name, substr(name, 6)::int AS i FROM "Feature" WHERE name LIKE 'flag-%')`;
  const numbered = `(SELECT name, "createdAt", substr(name, 6)::int AS i FROM "Feature" WHERE name LIKE 'flag-%')`;
  await run(`INSERT INTO "FeatureEnvironment"("featureName", "environmentName", enabled, "lastSeenAt")
    SELECT f.name, e.name, (f.i + length(e.name)) % 3 = 0,
      CASE WHEN f.i % 3 = 0 THEN NULL ELSE now() - ((f.i + length(e.name)) % 500) * interval '1 hour' END
    FROM ${flagsWithNumber} f CROSS JOIN (VALUES ('development'), ('staging'), ('production')) e(name)`);

  log("tags (1 to 4 per flag)");
  await run(`INSERT INTO "TagType"(name) VALUES ('team'), ('area'), ('kind') ON CONFLICT DO NOTHING`);
  await run(`INSERT INTO "Tag"(type, value)
    SELECT 'team', unnest(${TEAMS})
    UNION ALL SELECT 'area', 'area-' || lpad(g::text, 2, '0') FROM generate_series(1, 20) g
    UNION ALL SELECT 'kind', 'kind-' || g FROM generate_series(1, 10) g`);
  await run(`INSERT INTO "FeatureTag"("featureName", "tagType", "tagValue")
    SELECT name, 'team', (${TEAMS})[(i / 7) % 5 + 1] FROM ${flagsWithNumber} f
    UNION ALL SELECT name, 'area', 'area-' || lpad((i % 20 + 1)::text, 2, '0') FROM ${flagsWithNumber} f WHERE i % 4 >= 1
    UNION ALL SELECT name, 'kind', 'kind-' || (i % 10 + 1) FROM ${flagsWithNumber} f WHERE i % 4 >= 2
    UNION ALL SELECT name, 'area', 'area-' || lpad(((i + 7) % 20 + 1)::text, 2, '0') FROM ${flagsWithNumber} f WHERE i % 4 = 3`);

  log("strategies (2 per flag, with constraints) and segments");
  await run(`INSERT INTO "Segment"(name, constraints)
    SELECT 'segment-' || lpad(g::text, 2, '0'),
      jsonb_build_array(jsonb_build_object('contextName', 'region', 'operator', 'IN', 'values', jsonb_build_array('eu', 'us')))
    FROM generate_series(1, 20) g`);
  await run(`INSERT INTO "FeatureStrategy"(id, "featureName", "projectId", "environmentName", "strategyName",
      parameters, constraints, "sortOrder")
    SELECT gen_random_uuid()::text, f.name, f."projectId", e.name, 'flexibleRollout',
      jsonb_build_object('rollout', ((substr(f.name, 6)::int * 7) % 100)::text, 'stickiness', 'default', 'groupId', f.name),
      jsonb_build_array(
        jsonb_build_object('contextName', 'userId', 'operator', 'IN', 'values', jsonb_build_array('1', '2', '3'),
          'caseInsensitive', false, 'inverted', false),
        jsonb_build_object('contextName', 'appVersion', 'operator', 'SEMVER_GT', 'value', '2.0.0',
          'caseInsensitive', false, 'inverted', false)),
      0
    FROM "Feature" f CROSS JOIN (VALUES ('development'), ('production')) e(name) WHERE f.name LIKE 'flag-%'`);
  await run(`INSERT INTO "FeatureStrategySegment"("strategyId", "segmentId")
    SELECT s.id, seg.id FROM "FeatureStrategy" s
    JOIN "Segment" seg ON seg.name = 'segment-' || lpad((substr(s."featureName", 6)::int % 20 + 1)::text, 2, '0')
    WHERE substr(s."featureName", 6)::int % 5 = 0`);

  log("lifecycle, favourites, last hour's metrics");
  await run(`INSERT INTO "FeatureLifecycle"("featureName", stage, "createdAt")
    SELECT name, 'initial', "createdAt" FROM "Feature" WHERE name LIKE 'flag-%'
    UNION ALL SELECT name, 'pre-live', "createdAt" + interval '1 day' FROM ${numbered} f WHERE i % 10 < 6
    UNION ALL SELECT name, 'live', "createdAt" + interval '2 days' FROM ${numbered} f WHERE i % 10 < 3`);
  // 133 of 10,000 favourites: the default list (favourites first) is judged with many (issue 42).
  await run(`INSERT INTO "FavoriteFeature"("userId", "featureName")
    SELECT ${user.id}, name FROM ${flagsWithNumber} f WHERE i % 75 = 7`);
  await run(`INSERT INTO "FeatureMetricsHourly"("featureName", "environmentName", hour, yes, no)
    SELECT name, 'production', date_trunc('hour', now()) - interval '1 hour', i % 1000, i % 77 FROM ${flagsWithNumber} f`);

  // Every flag gets an equal share of the events, except HOT_FLAG: one event in 547 is also
  // its, so with a million events it has 1,928, the history of Unleash's hot flag in issue 16.
  const EVENT_FLAG = `CASE WHEN g % 547 = 0 THEN ${HOT_FLAG} ELSE g % ${flags} + 1 END`;
  const batch = 100_000;
  for (let from = 1; from <= events; from += batch) {
    const to = Math.min(events, from + batch - 1);
    log(`events ${from}..${to} of ${events}`);
    await run(`INSERT INTO "Event"(type, "createdAt", "createdBy", "createdByUserId", project, environment,
        "featureName", data, "preData", tags)
      SELECT (${EVENT_TYPES})[g % 8 + 1],
        now() - ((${events} - g) * interval '30 seconds'),
        'user-' || (g % 50) || '@example.com', g % 50 + 1000,
        ${projectOf(EVENT_FLAG)},
        (ARRAY['development','staging','production'])[g % 3 + 1],
        ${flagName(EVENT_FLAG)},
        jsonb_build_object('name', ${flagName(EVENT_FLAG)}, 'enabled', g % 2 = 0,
          'description', 'Change ' || g || ' for team ' || (${TEAMS})[((g % ${flags} + 1) / 7) % 5 + 1],
          'strategy', jsonb_build_object('name', 'flexibleRollout', 'rollout', (g % 100)::text)),
        CASE WHEN g % 2 = 0 THEN jsonb_build_object('enabled', g % 2 <> 0) ELSE NULL END,
        jsonb_build_array(jsonb_build_object('type', 'team', 'value', (${TEAMS})[((g % ${flags} + 1) / 7) % 5 + 1]))
      FROM generate_series(${from}, ${to}) g`);
  }
  log("VACUUM ANALYZE");
  await run("VACUUM ANALYZE");
  return { userId: user.id };
}

/** Moves the first `count` flags of project-01 (with their strategies) into a project of their own. */
export async function moveIntoOwnProject(db: PrismaClient, project: string, count: number) {
  await db.$transaction([
    db.$executeRawUnsafe(`INSERT INTO "Project"(id, name) VALUES ('${project}', '${project}')`),
    db.$executeRawUnsafe(`INSERT INTO "ProjectEnvironment"("projectId", "environmentName")
      SELECT '${project}', "environmentName" FROM "ProjectEnvironment" WHERE "projectId" = 'project-01'`),
    db.$executeRawUnsafe(`CREATE TEMP TABLE moved AS
      SELECT name FROM "Feature" WHERE "projectId" = 'project-01' AND "archivedAt" IS NULL ORDER BY name LIMIT ${count}`),
    db.$executeRawUnsafe(
      `UPDATE "Feature" SET "projectId" = '${project}' WHERE name IN (SELECT name FROM moved)`,
    ),
    db.$executeRawUnsafe(
      `UPDATE "FeatureStrategy" SET "projectId" = '${project}' WHERE "featureName" IN (SELECT name FROM moved)`,
    ),
    db.$executeRawUnsafe("DROP TABLE moved"),
  ]);
}
