import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { flagRecordJson } from "../../src/modules/flag-record/flag-record.read.ts";
import { historyColumns } from "../../src/modules/time-travel/flag-history.write.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  createFlag,
  createProject,
  createSegment,
  disableFlag,
  enableFlag,
  gqlOk,
  userWithPat,
} from "../helpers/builders.ts";
import { FLAG_FIELDS, nextMillisecond, normalized } from "./time-travel-helpers.ts";

let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "vic-viewer", "Viewer")).token;
});
afterAll(() => t.close());

/** The current instant, once the clock has moved past it (so later changes are strictly after). */
async function instant(): Promise<string> {
  return (await nextMillisecond(new Date())).toISOString();
}

const toggle = (name: string, environment: string, on: boolean, project = "default") =>
  (on ? enableFlag : disableFlag)(t, name, environment, project);
const live = async (name: string) =>
  normalized(
    (
      await gqlOk<{ feature: unknown }>(t, `query($n: String!) { feature(name: $n) { ${FLAG_FIELDS} } }`, {
        n: name,
      })
    ).feature,
  );
const pastState = async (name: string, at: string) =>
  normalized(
    (
      await gqlOk<{ featureAt: { state: unknown } }>(
        t,
        `query($n: String!, $at: DateTime!) { featureAt(name: $n, at: $at) { state { ${FLAG_FIELDS} } } }`,
        { n: name, at },
      )
    ).featureAt.state,
  );
const withoutStrategyIds = (flag: any) => ({
  ...flag,
  environments: flag.environments.map((e: any) => ({
    ...e,
    strategies: e.strategies.map(({ id: _id, ...s }: any) => s),
  })),
});

describe("environmentSnapshot and diffs", () => {
  let t0: string;
  let t1: string;
  let t2: string;
  // A project of their own: its snapshots hold only these flags, and no other test's baseline.
  beforeAll(async () => {
    await createProject(t, "snapshots");
    t0 = await instant();
    await createFlag(t, "snap-a", { project: "snapshots" });
    await createFlag(t, "snap-b", { project: "snapshots" });
    await toggle("snap-a", "production", true, "snapshots");
    t1 = await instant();
    await toggle("snap-a", "production", false, "snapshots");
    await toggle("snap-b", "production", true, "snapshots");
    await gqlOk(
      t,
      `mutation { addFeatureTag(feature: "snap-b", type: "simple", value: "team-x") { value } }`,
    );
    t2 = await instant();
  });

  it("lists the project's flags as they were in one environment, with the last event applied", async () => {
    const data = await gqlOk<{ environmentSnapshot: any }>(
      t,
      `query($at: DateTime!) { environmentSnapshot(project: "snapshots", environment: "production", at: $at) {
         exactSince features { name exact lastEventId state { name environments { name enabled strategies { name } } } } } }`,
      { at: t1 },
    );
    const byName = Object.fromEntries(data.environmentSnapshot.features.map((f: any) => [f.name, f]));
    expect(data.environmentSnapshot.exactSince).toBeNull();
    expect(byName["snap-a"].state.environments).toEqual([
      { name: "production", enabled: true, strategies: [{ name: "flexibleRollout" }] },
    ]);
    expect(byName["snap-b"].state.environments).toEqual([
      { name: "production", enabled: false, strategies: [] },
    ]);
    expect(byName["snap-a"].lastEventId).toBeGreaterThan(byName["snap-b"].lastEventId);
    const before = await gqlOk<{ environmentSnapshot: { features: unknown[] } }>(
      t,
      `query($at: DateTime!) { environmentSnapshot(project: "snapshots", environment: "production", at: $at) { features { name } } }`,
      { at: t0 },
    );
    expect(before.environmentSnapshot.features).toEqual([]);
  });

  it("diffs an environment: the fields that differ, each with the events that changed them", async () => {
    const data = await gqlOk<{ changes: any[] }>(
      t,
      `query($from: DateTime!, $to: DateTime!) { changes(project: "snapshots", environment: "production", from: $from, to: $to) {
         name exact fields { field environment before after moreEvents events { id type createdBy createdAt } } } }`,
      { from: t1, to: t2 },
    );
    const byName = Object.fromEntries(data.changes.map((c: any) => [c.name, c]));
    expect(byName["snap-a"].fields).toEqual([
      expect.objectContaining({
        field: "enabled",
        environment: "production",
        before: true,
        after: false,
        moreEvents: false,
        events: [expect.objectContaining({ type: "feature-environment-disabled", createdBy: "admin-token" })],
      }),
    ]);
    expect(byName["snap-b"].fields.map((f: any) => [f.field, f.events.map((e: any) => e.type)])).toEqual([
      ["tags", ["feature-tagged"]],
      ["enabled", ["feature-environment-enabled"]],
      ["strategies", ["feature-strategy-add"]],
    ]);
    const single = await gqlOk<{ featureChanges: any }>(
      t,
      `query($from: DateTime!, $to: DateTime!) { featureChanges(name: "snap-b", from: $from, to: $to) { name fields { field environment } } }`,
      { from: t0, to: t2 },
    );
    expect(single.featureChanges.fields).toContainEqual({ field: "exists", environment: null });
    expect(single.featureChanges.fields).toContainEqual({ field: "enabled", environment: "production" });
  });

  it("serves the environment diff over REST, and refuses a bad range with 400", async () => {
    const path = "/api/admin/projects/snapshots/environments/production/diff";
    const res = await t.rest("GET", `${path}?from=${encodeURIComponent(t1)}&to=${encodeURIComponent(t2)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project: "snapshots", environment: "production" });
    expect(res.body.features.map((f: any) => f.name).sort()).toEqual(["snap-a", "snap-b"]);
    expect(res.body.features[0].fields[0].events[0]).toEqual({
      id: expect.any(Number),
      type: expect.any(String),
      createdBy: "admin-token",
      createdAt: expect.any(String),
    });
    // Without a range: the last day, which holds every change of this file.
    const lastDay = await t.rest("GET", path);
    expect(lastDay.body.features.map((f: any) => f.name)).toEqual(
      expect.arrayContaining(["snap-a", "snap-b"]),
    );
    const backwards = await t.rest(
      "GET",
      `${path}?from=${encodeURIComponent(t2)}&to=${encodeURIComponent(t1)}`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain("to: must not be before from");
    const tooLong = await t.rest("GET", `${path}?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain("at most 31 days");
    const notADate = await t.rest("GET", `${path}?from=yesterday&to=${encodeURIComponent(t2)}`);
    expect(notADate.status).toBe(400);
    expect(notADate.body).toMatchObject({
      name: "ValidationError",
      message: expect.stringContaining('"from" must be an RFC 3339 timestamp'),
    });
    for (const query of [`from=2026%00-01`, `from=${"9".repeat(100_000)}`, `from=%E0%A4%A`]) {
      const bad = await t.rest("GET", `${path}?${query}`);
      expect(bad.status, query.slice(0, 40)).toBe(400);
      expect(bad.body).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        message: expect.any(String),
      });
    }
    const nulEnvironment = await t.rest("GET", "/api/admin/projects/snapshots/environments/pro%00d/diff");
    expect(nulEnvironment.status).toBeLessThan(500);
  });

  it("lets a Viewer read history but not restore", async () => {
    const read = await t.gql(
      `query($at: DateTime!) { featureAt(name: "snap-a", at: $at) { exact } }`,
      { at: t1 },
      viewer,
    );
    expect(read).toEqual({ data: { featureAt: { exact: true } } });
    const restore = await t.gql(
      `mutation($at: DateTime!) { restoreFeature(project: "snapshots", name: "snap-a", at: $at) { events } }`,
      { at: t1 },
      viewer,
    );
    expect(restore.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("restore", () => {
  it("makes a flag what it was, as ordinary changes with ordinary events", async () => {
    await createFlag(t, "restore-me");
    await addStrategy(t, "restore-me", { name: "default", constraints: [] }, "development");
    await toggle("restore-me", "development", true);
    await gqlOk(
      t,
      `mutation { addFeatureTag(feature: "restore-me", type: "simple", value: "keep") { value } }`,
    );
    const then = await instant();
    const wanted = await live("restore-me");
    const strategies = await gqlOk<{ feature: any }>(
      t,
      `{ feature(name: "restore-me") { environments { name strategies { id: databaseId } } } }`,
    );
    const id = strategies.feature.environments.find((e: any) => e.name === "development").strategies[0].id;
    await gqlOk(
      t,
      `mutation($id: String!) { deleteFeatureStrategy(project: "default", feature: "restore-me", environment: "development", id: $id) { name } }`,
      { id },
    );
    await addStrategy(t, "restore-me", { name: "default", constraints: [] }, "production");
    await toggle("restore-me", "production", true);
    await gqlOk(
      t,
      `mutation { removeFeatureTag(feature: "restore-me", type: "simple", value: "keep") { name } }`,
    );
    await gqlOk(
      t,
      `mutation { updateFeature(project: "default", name: "restore-me", input: { description: "later", stale: true }) { name } }`,
    );
    await gqlOk(t, `mutation { archiveFeatures(project: "default", names: ["restore-me"]) { name } }`);
    expect(await live("restore-me")).not.toEqual(wanted);

    const restored = await gqlOk<{ restoreFeature: any }>(
      t,
      `mutation($at: DateTime!) { restoreFeature(project: "default", name: "restore-me", at: $at) { events changeRequests { id } skipped { feature } } }`,
      { at: then },
    );
    expect(restored.restoreFeature).toMatchObject({ changeRequests: [], skipped: [] });
    // The deleted strategy comes back as a new one (a new id), the rest is as it was; reviving
    // turned production off already, so removing its strategy records no disable.
    expect(withoutStrategyIds(await live("restore-me"))).toEqual(withoutStrategyIds(wanted));
    const events = await gqlOk<{ events: { edges: { node: { type: string } }[] } }>(
      t,
      `{ events(first: ${restored.restoreFeature.events}, filter: { features: ["restore-me"] }) { edges { node { type } } } }`,
    );
    expect(events.events.edges.map((e) => e.node.type).sort()).toEqual(
      [
        "feature-revived",
        "feature-metadata-updated",
        "feature-stale-off",
        "feature-tagged",
        "feature-strategy-add",
        "feature-environment-enabled",
        "feature-strategy-remove",
      ].sort(),
    );
  });

  it("proposes the changes of an environment that requires change requests instead of applying them", async () => {
    await createFlag(t, "guarded");
    const then = await instant();
    await addStrategy(t, "guarded", { name: "default", constraints: [] }, "production");
    await toggle("guarded", "production", true);
    await gqlOk(
      t,
      `mutation { updateChangeRequestConfig(project: "default", environment: "production", changeRequestsEnabled: true, requiredApprovals: 1) { environment } }`,
    );
    try {
      const result = await gqlOk<{ restoreFeature: any }>(
        t,
        `mutation($at: DateTime!) { restoreFeature(project: "default", name: "guarded", at: $at) { events changeRequests { environment id } } }`,
        { at: then },
      );
      expect(result.restoreFeature.changeRequests).toEqual([
        { environment: "production", id: expect.any(Number) },
      ]);
      const cr = await gqlOk<{
        changeRequest: { state: string; features: { name: string; changes: { action: string }[] }[] };
      }>(
        t,
        `query($id: Int!) { changeRequest(project: "default", id: $id) { state features { name changes { action } } } }`,
        { id: result.restoreFeature.changeRequests[0].id },
      );
      expect(cr.changeRequest.state).toBe("Draft");
      expect(cr.changeRequest.features[0]?.changes.map((c) => c.action)).toEqual([
        "deleteStrategy",
        "updateEnabled",
      ]);
      expect(
        ((await live("guarded")) as any).environments.find((e: any) => e.name === "production").enabled,
      ).toBe(true);
    } finally {
      await gqlOk(
        t,
        `mutation { updateChangeRequestConfig(project: "default", environment: "production", changeRequestsEnabled: false, requiredApprovals: 1) { environment } }`,
      );
    }
  });

  it("restores a whole environment", async () => {
    await createFlag(t, "env-1");
    await createFlag(t, "env-2");
    await toggle("env-1", "development", true);
    const then = await instant();
    await toggle("env-1", "development", false);
    await toggle("env-2", "development", true);
    const result = await gqlOk<{ restoreEnvironment: { events: number } }>(
      t,
      `mutation($at: DateTime!) { restoreEnvironment(project: "default", environment: "development", at: $at) { events } }`,
      { at: then },
    );
    expect(result.restoreEnvironment.events).toBeGreaterThan(0);
    const now = await instant();
    const snapshot = await gqlOk<{ environmentSnapshot: { features: any[] } }>(
      t,
      `query($at: DateTime!) { environmentSnapshot(project: "default", environment: "development", at: $at) { features { name state { environments { enabled } } } } }`,
      { at: now },
    );
    const enabled = (name: string) =>
      snapshot.environmentSnapshot.features.find((f) => f.name === name).state.environments[0].enabled;
    expect([enabled("env-1"), enabled("env-2")]).toEqual([true, false]);
  });

  it("refuses what cannot be restored, saying what is missing", async () => {
    const segmentId = await createSegment(t, "gone-soon", {
      constraints: [{ contextName: "userId", operator: "IN", values: ["1"] }],
    });
    await createFlag(t, "uses-segment");
    const strategy = await addStrategy(t, "uses-segment", {
      name: "default",
      constraints: [],
      segments: [segmentId],
    });
    const then = await instant();
    await gqlOk(
      t,
      `mutation($id: String!) { deleteFeatureStrategy(project: "default", feature: "uses-segment", environment: "development", id: $id) { name } }`,
      { id: strategy.id },
    );
    await gqlOk(t, `mutation($id: Int!) { deleteSegment(id: $id) }`, { id: segmentId });
    const refused = await t.gql(
      `mutation($at: DateTime!) { restoreFeature(project: "default", name: "uses-segment", at: $at) { events } }`,
      { at: then },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(refused.errors?.[0]?.message).toContain(`segment ${segmentId} (deleted)`);
    const before = await t.gql(
      `mutation { restoreFeature(project: "default", name: "uses-segment", at: "2000-01-01T00:00:00Z") { events } }`,
    );
    expect(before.errors?.[0]?.message).toContain("did not exist");
  });
});

describe("history older than time travel", () => {
  it("says from which instant a flag's history is exact", async () => {
    await createFlag(t, "old-flag");
    await toggle("old-flag", "development", true);
    const early = await instant();
    // As the migration leaves a database whose events predate time travel: only a baseline.
    // Direct write: the API records a flag's whole history; only a migration leaves a baseline alone.
    await t.database.prisma.$executeRaw`DELETE FROM "FeatureStateVersion" WHERE "featureName" = 'old-flag'`;
    const baselineAt = await instant();
    await t.database.prisma.$executeRaw`
      INSERT INTO "FeatureStateVersion" ("featureName", "createdAt", "baseline", "projectId", "state", "environments")
      SELECT 'old-flag', ${new Date(baselineAt)}::timestamp(3), true, 'default', ${historyColumns(Prisma.sql`r.s`)}
        FROM "Feature" f CROSS JOIN LATERAL (SELECT ${flagRecordJson(Prisma.sql`f`, { as: "jsonb" })} AS s) r
       WHERE f.name = 'old-flag'`;
    const later = await instant();
    const query = `query($at: DateTime!) { featureAt(name: "old-flag", at: $at) { exact exactSince state { name } } }`;
    expect((await gqlOk(t, query, { at: early })).featureAt).toEqual({
      exact: false,
      exactSince: baselineAt,
      state: null,
    });
    expect((await gqlOk(t, query, { at: later })).featureAt).toEqual({
      exact: true,
      exactSince: baselineAt,
      state: { name: "old-flag" },
    });
    const snapshot = await gqlOk<{ environmentSnapshot: { exactSince: string } }>(
      t,
      `query($at: DateTime!) { environmentSnapshot(project: "default", environment: "development", at: $at) { exactSince } }`,
      { at: later },
    );
    expect(snapshot.environmentSnapshot.exactSince).toBe(baselineAt);
    expect(await pastState("old-flag", later)).toEqual(await live("old-flag"));
  });
});
