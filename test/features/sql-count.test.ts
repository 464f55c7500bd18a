import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureFields } from "../../rest/fragments.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createSqlCounter } from "../helpers/sql-counter.ts";

const counter = createSqlCounter();
let t: TestApp;

/** Seeds `count` flags with 2 strategies per environment, 2 tags and a parent dependency each. */
async function seedFlags(prefix: string, count: number) {
  // Direct write: the same rows through the API (importFeatures) cost 13 s on PGlite, 9 of them
  // for the first 95 flags; these statement counts are of reads, whoever wrote the rows.
  const db = t.database.prisma;
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const envs = ["development", "production"];
  await db.tagType.upsert({ where: { name: "team" }, create: { name: "team" }, update: {} });
  await db.feature.createMany({ data: names.map((name) => ({ name, projectId: "default" })) });
  await db.featureLifecycle.createMany({
    data: names.map((featureName) => ({ featureName, stage: "initial" })),
  });
  await db.featureEnvironment.createMany({
    data: names.flatMap((featureName, i) =>
      envs.map((environmentName) => ({ featureName, environmentName, enabled: i % 2 === 0 })),
    ),
  });
  await db.featureStrategy.createMany({
    data: names.flatMap((featureName) =>
      envs.flatMap((environmentName) =>
        [0, 1].map((sortOrder) => ({
          featureName,
          projectId: "default",
          environmentName,
          strategyName: "flexibleRollout",
          sortOrder,
          parameters: { rollout: "50", stickiness: "default", groupId: featureName },
          constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
        })),
      ),
    ),
  });
  const tags = names.flatMap((featureName, i) =>
    [`a-${i}`, `b-${i}`].map((value) => ({ featureName, value })),
  );
  await db.tag.createMany({ data: tags.map(({ value }) => ({ type: "team", value })), skipDuplicates: true });
  await db.featureTag.createMany({
    data: tags.map(({ featureName, value }) => ({ featureName, tagType: "team", tagValue: value })),
  });
  await db.featureDependency.createMany({
    data: names.slice(1).map((childName) => ({ parentName: names[0]!, childName })),
  });
}

const QUERY = `query($first: Int!) { features(first: $first) { totalCount edges { node { ...FeatureFields } } } }
  ${print(FeatureFields)}`;

beforeAll(async () => {
  t = await createTestApp({}, { wrapAdapter: counter.wrap });
  await seedFlags("few", 5);
  await seedFlags("many", 95);
  // The first use of a credential reads it and records its `seenAt`; later requests find it
  // remembered (until a committed change): measure that steady state.
  await t.gql("{ viewer { name } }");
});
afterAll(() => t.close());

describe("reading flags costs a constant number of SQL statements", () => {
  it("100 flags with environments, strategies, tags and dependencies cost the same as 5", async () => {
    const small = await counter.during(() => t.gql(QUERY, { first: 5 }));
    const large = await counter.during(() => t.gql(QUERY, { first: 100 }));
    expect(small.result.errors).toBeUndefined();
    expect(large.result.errors).toBeUndefined();
    const edges = (large.result.data as { features: { edges: { node: any }[] } }).features.edges;
    expect(edges).toHaveLength(100);
    const sample = edges.find((e) => e.node.name === "many-3")!.node;
    expect(sample.environments).toHaveLength(2);
    expect(sample.environments[0].strategies).toHaveLength(2);
    expect(sample.tags).toEqual([
      { type: "team", value: "a-3" },
      { type: "team", value: "b-3" },
    ]);
    expect(sample.dependencies).toEqual([{ feature: "many-0", enabled: true, variants: [] }]);
    expect(large.statements.length).toBe(small.statements.length);
    expect(large.statements.length).toBeLessThanOrEqual(25);
  });
});

describe("a flag's record reads each relation once", () => {
  it("the strategies of every environment (deprecated `strategies`) come from the environments' read", async () => {
    const { result, statements } = await counter.during(() =>
      t.rest("GET", "/api/admin/projects/default/features/few-2"),
    );
    type Strategy = { id: string; sortOrder: number };
    const body = result.body as {
      strategies: Strategy[];
      environments: { name: string; strategies: Strategy[] }[];
    };
    const byName = [...body.environments].sort((a, b) => a.name.localeCompare(b.name));
    expect(body.strategies).toHaveLength(4);
    expect(body.strategies).toEqual(byName.flatMap((e) => e.strategies));
    const record = statements.filter((s) => s.includes('"Feature_environments"'));
    expect(record).toHaveLength(1);
    expect(record[0]!.match(/"public"\."FeatureStrategy"/g)).toHaveLength(1);
  });
});

describe("the project list reads the projects once", () => {
  it("one read of the projects, one grouped count of their flags (active, stale, potentially stale)", async () => {
    const db = t.database.prisma;
    await db.project.create({ data: { id: "other", name: "Other" } });
    await db.feature.createMany({
      data: [
        { name: "other-stale", projectId: "other", stale: true },
        { name: "other-aging", projectId: "other", potentiallyStale: true },
        { name: "other-both", projectId: "other", stale: true, potentiallyStale: true },
        { name: "other-fresh", projectId: "other" },
        { name: "other-gone", projectId: "other", stale: true, archivedAt: new Date() },
      ],
    });
    const { result, statements } = await counter.during(() => t.rest("GET", "/api/admin/projects"));
    const projects = (result.body as { projects: Record<string, unknown>[] }).projects;
    expect(projects.find((p) => p.id === "other")).toMatchObject({
      featureCount: 4,
      staleFeatureCount: 2,
      potentiallyStaleFeatureCount: 1,
    });
    expect(statements.filter((s) => /FROM "public"\."Project"/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('FROM "Feature"'))).toHaveLength(1);
  });
});

describe("a flag search page costs one SQL statement, whatever its size", () => {
  it("one statement for the total, the page and its items (the credential is remembered)", async () => {
    const path = (limit: number) => `/api/admin/search/features?limit=${limit}&favoritesFirst=true`;
    const small = await counter.during(() => t.rest("GET", path(5)));
    const large = await counter.during(() => t.rest("GET", path(100)));
    expect(small.result.status).toBe(200);
    const body = large.result.body as { features: { environments: { yes: number }[] }[]; total: number };
    expect(body.features).toHaveLength(100);
    expect(body.features[0]?.environments[0]?.yes).toBe(0);
    expect(small.statements).toHaveLength(1);
    expect(large.statements).toHaveLength(1);
  });
});

describe("creating a flag costs a fixed number of SQL statements", () => {
  it("the flag-limit lock, one read of everything it checks, one insert of the flag and its rows, the event with its outbox rows, the answer", async () => {
    const mutation = `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name } }`;
    // The first write after start (or a settings change) reads maintenance mode once.
    expect((await t.gql(mutation, { n: "warm-up-create" })).errors).toBeUndefined();
    const { result, statements } = await counter.during(() => t.gql(mutation, { n: "counted-create" }));
    expect(result.errors).toBeUndefined();
    expect(withoutTransaction(statements)).toHaveLength(5);
    expect(statements.filter((s) => s.includes("pg_advisory_xact_lock"))).toHaveLength(1);
    expect(statements.filter((s) => s.includes('INSERT INTO "AddonDelivery"'))).toHaveLength(1);
    expect(statements.filter((s) => s.includes("pg_current_xact_id"))).toEqual([]);
    const flag = await t.rest("GET", "/api/admin/projects/default/features/counted-create");
    expect(
      flag.body.environments.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled]),
    ).toEqual([
      ["development", false],
      ["production", false],
    ]);
    expect(flag.body.lifecycle.stage).toBe("initial");
  });
});

describe("a flag's create reads the record it answers after COMMIT (PostgreSQL)", () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    "the lock, checks, insert and event in the transaction; the record after it",
    async () => {
      const mutation = `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name type } }`;
      const { result, statements } = await counter.during(() => t.gql(mutation, { n: "created-then-read" }));
      expect(result.errors).toBeUndefined();
      const commit = statements.findIndex((s) => /^\s*COMMIT\b/.test(s));
      const record = statements.findIndex((s) => s.includes('"t0"."type"'));
      expect(statements.filter((s) => /^\s*(COMMIT|ROLLBACK)\b/.test(s))).toEqual(["COMMIT"]);
      expect(record).toBeGreaterThan(commit);
    },
  );
});

describe("a toggle answers the Feature record in a fixed number of SQL statements", () => {
  const path = (state: string) =>
    `/api/admin/projects/default/features/few-1/environments/development/${state}`;

  it("off: the unlocked check, the lock, the state under it, the update, the event; the record and one statement for favourite, collaborators and open change requests", async () => {
    expect((await t.rest("POST", path("on"))).status).toBe(200);
    const { result, statements } = await counter.during(() => t.rest("POST", path("off")));
    expect(result.status).toBe(200);
    expect((result.body as { favorite: boolean; collaborators: unknown }).collaborators).toEqual({
      users: [],
    });
    const sent = withoutTransaction(statements);
    expect(sent).toHaveLength(7);
    expect(sent.filter((s) => /FOR NO KEY UPDATE/.test(s))).toHaveLength(1);
    expect(sent.filter((s) => s.includes("FavoriteFeature") && s.includes("ChangeRequest"))).toHaveLength(1);
  });

  it("on (a strategy applies): the unlocked check, the lock, the state under it, the update, the event; the record and its facts", async () => {
    expect((await t.rest("POST", path("off"))).status).toBe(200);
    const { result, statements } = await counter.during(() => t.rest("POST", path("on")));
    expect(result).toMatchObject({ status: 200, body: { name: "few-1" } });
    const development = (
      result.body as { environments: { name: string; enabled: boolean }[] }
    ).environments.find((e) => e.name === "development");
    expect(development?.enabled).toBe(true);
    expect(withoutTransaction(statements)).toHaveLength(7);
  });

  // PGlite ends its transactions itself, out of the statements' sight: PostgreSQL only.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "the flag's lock is held for the switch and the event only: the record and its facts are read after COMMIT",
    async () => {
      expect((await t.rest("POST", path("on"))).status).toBe(200);
      const { result, statements } = await counter.during(() => t.rest("POST", path("off")));
      expect(result.status).toBe(200);
      const commit = statements.findIndex((s) => /^\s*COMMIT\b/.test(s));
      const record = statements.findIndex((s) => s.includes('"t0"."projectId"'));
      // (BEGIN goes with taking the connection, inside the adapter, unobserved.)
      expect(statements.filter((s) => /^\s*COMMIT\b/.test(s))).toEqual(["COMMIT"]);
      expect(commit).toBeGreaterThan(0);
      expect(record).toBeGreaterThan(commit);
    },
  );

  it("a toggle that changes nothing: the check, the record and the facts, with no transaction and no lock", async () => {
    expect((await t.rest("POST", path("off"))).status).toBe(200);
    const { result, statements } = await counter.during(() => t.rest("POST", path("off")));
    expect(result).toMatchObject({ status: 200, body: { name: "few-1" } });
    expect(statements).toHaveLength(3);
    expect(statements.filter((s) => /^\s*(BEGIN|COMMIT)\b|FOR (NO KEY )?UPDATE/.test(s))).toEqual([]);
  });
});

describe("a dataset loader's calls cost a fixed number of SQL statements (issue 16.1)", () => {
  const strategy = {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: "loaded" },
    constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
  };
  const strategies = "/api/admin/projects/default/features/loaded/environments/development/strategies";

  it("a strategy: the flag's lock, one read of what it checks, one insert, the event (the answer is the inserted row)", async () => {
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "loaded" })).status).toBe(
      201,
    );
    expect((await t.rest("POST", strategies, strategy)).status).toBe(200);
    const { result, statements } = await counter.during(() => t.rest("POST", strategies, strategy));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ sortOrder: 1, segments: [], parameters: strategy.parameters });
    expect(withoutTransaction(statements)).toHaveLength(4);
  });

  it("a tag: the flag's lock, the tag, the flag's tag, the event (and tag-created for a new value)", async () => {
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "loaded-2" })).status).toBe(
      201,
    );
    const tag = (flag: string) =>
      counter.during(() =>
        t.rest("POST", `/api/admin/features/${flag}/tags`, { type: "simple", value: "shared" }),
      );
    const newValue = await tag("loaded");
    expect(newValue.result.status).toBe(201);
    expect(withoutTransaction(newValue.statements)).toHaveLength(5);
    const knownValue = await tag("loaded-2");
    expect(knownValue.result).toMatchObject({ status: 201, body: { type: "simple", value: "shared" } });
    expect(withoutTransaction(knownValue.statements)).toHaveLength(4);
    // Already tagged: no event, and no read back (the answer is the tag, with its type's colour
    // from the tag's statement).
    const again = await tag("loaded-2");
    expect(again.result).toMatchObject({ status: 201, body: { type: "simple", value: "shared" } });
    expect(withoutTransaction(again.statements)).toHaveLength(3);
  });
});

/** The PostgreSQL adapter sends BEGIN and COMMIT as statements, PGlite's does not: leave them out. */
function withoutTransaction(statements: string[]) {
  return statements.filter((s) => !/^\s*(BEGIN|COMMIT)\b/.test(s));
}
