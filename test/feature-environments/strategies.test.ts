import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strategySchema } from "../../rest/routes/strategy-shapes.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  archiveFlag,
  createFlag,
  eventsAfter,
  lastEventId,
  STRATEGY,
  userWithPat,
} from "../helpers/builders.ts";
import { environmentState } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const base = (f: string, e = "development") => `/api/admin/projects/default/features/${f}/environments/${e}`;

const UPDATE = `mutation($f: String!, $id: String!, $i: StrategyUpdateInput!) {
  updateFeatureStrategy(project: "default", feature: $f, environment: "development", id: $id, input: $i) { ${STRATEGY} } }`;
const DELETE = `mutation($f: String!, $id: String!) {
  deleteFeatureStrategy(project: "default", feature: $f, environment: "development", id: $id) { name enabled strategies { id: databaseId } } }`;
const REORDER = `mutation($f: String!, $o: [StrategySortOrderInput!]!) {
  setFeatureStrategySortOrder(project: "default", feature: $f, environment: "development", order: $o) { strategies { id: databaseId sortOrder } } }`;
const ENABLE = `mutation($f: String!) { enableFeatureEnvironment(project: "default", feature: $f, environment: "development") { name } }`;

describe("strategies over GraphQL", () => {
  it("adds a strategy with parameters as strings, sortOrder after the last one, and feature-strategy-add", async () => {
    await createFlag(t, "strat-add");
    const mark = await lastEventId(t);
    const first = await addStrategy(t, "strat-add", {
      name: "flexibleRollout",
      title: "Ten percent",
      parameters: { rollout: 10 },
    });
    expect(first).toMatchObject({
      name: "flexibleRollout",
      title: "Ten percent",
      disabled: false,
      sortOrder: 0,
      parameters: { rollout: "10", groupId: "strat-add", stickiness: "default" },
    });
    const second = await addStrategy(t, "strat-add", { name: "userWithId", parameters: { userIds: "1,2" } });
    expect(second.sortOrder).toBe(1);
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.environment, e.data?.id])).toEqual([
      ["feature-strategy-add", "development", first.id],
      ["feature-strategy-add", "development", second.id],
    ]);
    expect(events[0]?.preData).toBeNull();
  });

  it("updates only the given fields; feature-strategy-update carries new and old; a no-op records nothing", async () => {
    await createFlag(t, "strat-update");
    const strategy = await addStrategy(t, "strat-update", {
      name: "flexibleRollout",
      title: "Ten percent",
      parameters: { rollout: 10 },
    });
    await addStrategy(t, "strat-update", { name: "userWithId", parameters: { userIds: "1,2" } });
    const mark = await lastEventId(t);
    const res = await t.gql(UPDATE, {
      f: "strat-update",
      id: strategy.id,
      i: { title: "Twenty", parameters: { rollout: "20" } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.updateFeatureStrategy).toMatchObject({
      name: "flexibleRollout",
      title: "Twenty",
      sortOrder: 0,
    });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => e.type)).toEqual(["feature-strategy-update"]);
    expect(events[0]?.preData).toMatchObject({ title: "Ten percent", parameters: { rollout: "10" } });
    expect(events[0]?.data).toMatchObject({ title: "Twenty", parameters: { rollout: "20" } });
    const again = await lastEventId(t);
    await t.gql(UPDATE, { f: "strat-update", id: strategy.id, i: { title: "Twenty" } });
    expect(await eventsAfter(t, again)).toEqual([]);
  });

  it("disabling the last enabled strategy turns the environment off after the update event", async () => {
    await createFlag(t, "strat-auto-off");
    await t.gql(ENABLE, { f: "strat-auto-off" });
    const [strategy] = (await environmentState(t, "strat-auto-off")).strategies;
    const mark = await lastEventId(t);
    await t.gql(UPDATE, { f: "strat-auto-off", id: strategy.id, i: { disabled: true } });
    expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual([
      "feature-strategy-update",
      "feature-environment-disabled",
    ]);
    expect((await environmentState(t, "strat-auto-off")).enabled).toBe(false);
  });

  it("deleting a strategy records feature-strategy-remove; deleting the last enabled one also disables", async () => {
    await createFlag(t, "strat-delete");
    await t.gql(ENABLE, { f: "strat-delete" });
    const extra = await addStrategy(t, "strat-delete", { name: "default" });
    const [defaultStrategy] = (await environmentState(t, "strat-delete")).strategies;
    let mark = await lastEventId(t);
    const res = await t.gql(DELETE, { f: "strat-delete", id: extra.id });
    expect(res.data?.deleteFeatureStrategy).toEqual({
      name: "development",
      enabled: true,
      strategies: [{ id: defaultStrategy.id }],
    });
    const removed = await eventsAfter(t, mark);
    expect(removed.map((e) => [e.type, e.preData?.id, e.data])).toEqual([
      ["feature-strategy-remove", extra.id, null],
    ]);
    mark = await lastEventId(t);
    await t.gql(DELETE, { f: "strat-delete", id: defaultStrategy.id });
    expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual([
      "feature-strategy-remove",
      "feature-environment-disabled",
    ]);
  });

  it("reorders strategies with strategy-order-changed {strategyIds}; the same order again records nothing", async () => {
    await createFlag(t, "strat-order");
    const a = await addStrategy(t, "strat-order", { name: "default" });
    const b = await addStrategy(t, "strat-order", { name: "userWithId", parameters: { userIds: "7" } });
    const mark = await lastEventId(t);
    const res = await t.gql(REORDER, {
      f: "strat-order",
      o: [
        { id: a.id, sortOrder: 5 },
        { id: b.id, sortOrder: 1 },
      ],
    });
    expect(res.data?.setFeatureStrategySortOrder).toEqual({
      strategies: [
        { id: b.id, sortOrder: 1 },
        { id: a.id, sortOrder: 5 },
      ],
    });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.data, e.preData])).toEqual([
      ["strategy-order-changed", { strategyIds: [b.id, a.id] }, { strategyIds: [a.id, b.id] }],
    ]);
    const again = await lastEventId(t);
    await t.gql(REORDER, { f: "strat-order", o: [{ id: a.id, sortOrder: 6 }] });
    expect(await eventsAfter(t, again)).toEqual([]);
  });

  it("answers NOT_FOUND for a strategy of another flag or environment", async () => {
    await createFlag(t, "strat-mine");
    await createFlag(t, "strat-theirs");
    await addStrategy(t, "strat-mine", { name: "default" });
    const strategy = await addStrategy(t, "strat-theirs", { name: "default" });
    const res = await t.gql(UPDATE, { f: "strat-mine", id: strategy.id, i: { title: "x" } });
    expect(res.errors?.[0]).toMatchObject({
      message: `Could not find strategy with id ${strategy.id}`,
      extensions: { code: "NOT_FOUND" },
    });
    const missing = await t.gql(DELETE, { f: "strat-mine", id: "00000000-0000-0000-0000-000000000000" });
    expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const reorder = await t.gql(REORDER, { f: "strat-mine", o: [{ id: strategy.id, sortOrder: 0 }] });
    expect(reorder.errors?.[0]?.message).toBe(`Could not find strategy with id ${strategy.id}`);
  });

  it("refuses strategy changes on an archived flag (ARCHIVED) and records nothing", async () => {
    await createFlag(t, "strat-archived");
    const strategy = await addStrategy(t, "strat-archived", { name: "default" });
    await archiveFlag(t, "strat-archived");
    const mark = await lastEventId(t);
    const results = [
      await t.gql(UPDATE, { f: "strat-archived", id: strategy.id, i: { title: "x" } }),
      await t.gql(DELETE, { f: "strat-archived", id: strategy.id }),
      await t.gql(REORDER, { f: "strat-archived", o: [{ id: strategy.id, sortOrder: 1 }] }),
    ];
    for (const res of results) expect(res.errors?.[0]?.extensions?.code).toBe("ARCHIVED");
    const rest = await t.rest("POST", `${base("strat-archived")}/strategies`, { name: "default" });
    expect(rest).toMatchObject({ status: 400, body: { name: "ArchivedFeatureError" } });
    expect(await eventsAfter(t, mark)).toEqual([]);
  });
});

describe("strategy REST paths", () => {
  it("POST adds (200 with the strategy), PUT updates, set-sort-order reorders, DELETE removes", async () => {
    await createFlag(t, "rest-strat");
    const mark = await lastEventId(t);
    const added = await t.rest("POST", `${base("rest-strat")}/strategies`, {
      name: "flexibleRollout",
      parameters: { rollout: "50", stickiness: "userId", groupId: "g" },
      constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
      variants: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }],
    });
    expect(added.status).toBe(200);
    expect(strategySchema.safeParse(added.body).error).toBeUndefined();
    expect(added.body).toMatchObject({
      featureName: "rest-strat",
      parameters: { rollout: "50", stickiness: "userId", groupId: "g" },
      variants: [{ name: "blue", weight: 1000 }],
    });
    // A fetched strategy sent back as is: read-only fields are ignored.
    const updated = await t.rest("PUT", `${base("rest-strat")}/strategies/${added.body.id}`, {
      ...added.body,
      parameters: { rollout: "60", stickiness: "userId", groupId: "g" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.parameters.rollout).toBe("60");
    const second = await t.rest("POST", `${base("rest-strat")}/strategies`, { name: "default" });
    const order = await t.rest("POST", `${base("rest-strat")}/strategies/set-sort-order`, [
      { id: second.body.id, sortOrder: 0 },
      { id: added.body.id, sortOrder: 1 },
    ]);
    expect(order).toMatchObject({ status: 200, body: undefined });
    const removed = await t.rest("DELETE", `${base("rest-strat")}/strategies/${second.body.id}`);
    expect(removed).toMatchObject({ status: 200, body: undefined });
    expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual([
      "feature-strategy-add",
      "feature-strategy-update",
      "feature-strategy-add",
      "strategy-order-changed",
      "feature-strategy-remove",
    ]);
  });

  it("answers 404 for an unknown strategy and 400 for a body that is not a strategy", async () => {
    await createFlag(t, "rest-strat-refused");
    const missing = await t.rest(
      "PUT",
      `${base("rest-strat-refused")}/strategies/00000000-0000-0000-0000-000000000000`,
      {
        name: "default",
      },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe("NotFoundError");
    const viewer = (await userWithPat(t, "strategy-viewer", "Viewer")).token;
    const forbidden = await t.rest(
      "POST",
      `${base("rest-strat-refused", "production")}/strategies`,
      { name: "default" },
      viewer,
    );
    expect(forbidden).toMatchObject({ status: 403, body: { permissions: ["CREATE_FEATURE_STRATEGY"] } });
    expect(forbidden.body.message).toContain(
      '"CREATE_FEATURE_STRATEGY" permission in the "production" environment',
    );
    const bad = await t.rest("POST", `${base("rest-strat-refused")}/strategies`, [1, 2]);
    expect(bad.status).toBe(400);
    const noName = await t.rest("POST", `${base("rest-strat-refused")}/strategies`, { title: "x" });
    expect(noName.status).toBe(400);
    expect(noName.body.name).toBe("ValidationError");
  });

  it("answers 404 with Unleash's messages for a flag of another project or an unknown environment", async () => {
    await createFlag(t, "rest-strat-elsewhere");
    const wrongEnv = await t.rest("POST", `${base("rest-strat-elsewhere", "qa")}/strategies`, {
      name: "default",
    });
    expect(wrongEnv).toMatchObject({
      status: 404,
      body: { message: "Could not find environment qa for feature: rest-strat-elsewhere" },
    });
    const wrongProject = await t.rest(
      "POST",
      "/api/admin/projects/nope/features/rest-strat-elsewhere/environments/development/strategies",
      { name: "default" },
    );
    expect(wrongProject.status).toBe(404);
    expect(wrongProject.body.message).toBe(
      `There's no feature named "rest-strat-elsewhere" in project "nope", but there's a feature with that name in project "default"`,
    );
  });
});
