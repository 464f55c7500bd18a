import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureSchema } from "../../rest/routes/strategy-shapes.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  archiveFlag,
  configureChangeRequests,
  createFlag,
  createProject,
  eventsAfter,
  gqlOk,
  lastEventId,
  userWithPat,
} from "../helpers/builders.ts";
import { environmentState } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProject(t, "other");
});
afterAll(() => t.close());

const ENABLE = `mutation($p: String!, $f: String!, $e: String!, $a: Boolean) {
  enableFeatureEnvironment(project: $p, feature: $f, environment: $e, shouldActivateDisabledStrategies: $a) {
    name enabled environments { name enabled strategies { name parameters disabled } } } }`;
const DISABLE = `mutation($p: String!, $f: String!, $e: String!) {
  disableFeatureEnvironment(project: $p, feature: $f, environment: $e) { name enabled environments { name enabled } } }`;

const enable = (f: string, e = "development", a?: boolean, p = "default") => t.gql(ENABLE, { p, f, e, a });
const disable = (f: string, e = "development", p = "default") => t.gql(DISABLE, { p, f, e });
const onPath = (f: string, e = "development", p = "default") =>
  `/api/admin/projects/${p}/features/${f}/environments/${e}/on`;

describe("enabling a flag in an environment (GraphQL)", () => {
  // One flag's story: each step starts from the state the one before left.
  it("adds the default flexibleRollout 100% first, then enables (two events in one group); again records nothing; disables once; re-enables with only feature-environment-enabled", async () => {
    // adds the default flexibleRollout 100% first, then enables: two events in one group
    {
      await createFlag(t, "enable-fresh");
      const mark = await lastEventId(t);
      const res = await enable("enable-fresh");
      expect(res.errors).toBeUndefined();
      expect(res.data?.enableFeatureEnvironment).toMatchObject({
        enabled: true,
        environments: [
          {
            name: "development",
            enabled: true,
            strategies: [
              {
                name: "flexibleRollout",
                disabled: false,
                parameters: { rollout: "100", stickiness: "default", groupId: "enable-fresh" },
              },
            ],
          },
          { name: "production", enabled: false, strategies: [] },
        ],
      });
      const events = await eventsAfter(t, mark);
      expect(events.map((e) => [e.type, e.environment, e.featureName, e.project])).toEqual([
        ["feature-strategy-add", "development", "enable-fresh", "default"],
        ["feature-environment-enabled", "development", "enable-fresh", "default"],
      ]);
      expect(events[0]?.data).toEqual({
        id: expect.any(String),
        name: "flexibleRollout",
        title: null,
        disabled: false,
        constraints: [],
        parameters: { rollout: "100", stickiness: "default", groupId: "enable-fresh" },
        segments: [],
        sortOrder: 0,
        variants: [],
      });
      expect(events[1]?.data).toBeNull();
      expect(events[0]?.groupId).toBe(events[1]?.groupId);
      expect(events[1]).toMatchObject({
        label: "Flag enabled",
        summary:
          "**admin-token** enabled **[enable-fresh](http://localhost:4242/projects/default/features/enable-fresh)** for the **development** environment in project **[default](http://localhost:4242/projects/default)**",
      });
    }
    // is idempotent: enabling again records nothing and adds no strategy
    {
      const mark = await lastEventId(t);
      const res = await enable("enable-fresh");
      expect(res.errors).toBeUndefined();
      expect(await eventsAfter(t, mark)).toEqual([]);
      expect((await environmentState(t, "enable-fresh")).strategies).toHaveLength(1);
    }
    // disables once (feature-environment-disabled), and a repeat records nothing
    {
      const mark = await lastEventId(t);
      const res = await disable("enable-fresh");
      expect(res.data?.disableFeatureEnvironment).toMatchObject({ enabled: false });
      expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual(["feature-environment-disabled"]);
      const again = await lastEventId(t);
      await disable("enable-fresh");
      expect(await eventsAfter(t, again)).toEqual([]);
    }
    // re-enabling with an enabled strategy only records feature-environment-enabled
    {
      const mark = await lastEventId(t);
      await enable("enable-fresh");
      expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual(["feature-environment-enabled"]);
      expect((await environmentState(t, "enable-fresh")).strategies).toHaveLength(1);
    }
  });

  it("adds the default strategy when every strategy is disabled", async () => {
    await createFlag(t, "enable-all-disabled");
    await addStrategy(t, "enable-all-disabled", { name: "default", disabled: true });
    const mark = await lastEventId(t);
    await enable("enable-all-disabled");
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => e.type)).toEqual(["feature-strategy-add", "feature-environment-enabled"]);
    expect(events[0]?.data).toMatchObject({ name: "flexibleRollout", sortOrder: 1 });
    const state = await environmentState(t, "enable-all-disabled");
    expect(state.strategies.map((s: any) => [s.name, s.disabled])).toEqual([
      ["default", true],
      ["flexibleRollout", false],
    ]);
  });

  it("with shouldActivateDisabledStrategies re-enables each disabled strategy instead (no default)", async () => {
    await createFlag(t, "enable-activate");
    const a = await addStrategy(t, "enable-activate", { name: "default", disabled: true });
    const b = await addStrategy(t, "enable-activate", {
      name: "userWithId",
      disabled: true,
      parameters: { userIds: "1" },
    });
    const mark = await lastEventId(t);
    const res = await enable("enable-activate", "development", true);
    expect(res.errors).toBeUndefined();
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.data?.id, e.preData?.disabled, e.data?.disabled])).toEqual([
      ["feature-strategy-update", a.id, true, false],
      ["feature-strategy-update", b.id, true, false],
      ["feature-environment-enabled", undefined, undefined, undefined],
    ]);
    expect((await environmentState(t, "enable-activate")).strategies).toHaveLength(2);
  });

  it("uses the project's default strategy for the environment when one is set (groupId = flag)", async () => {
    await gqlOk(
      t,
      `mutation($s: StrategyInput!) {
        setProjectDefaultStrategy(project: "other", environment: "production", strategy: $s) { name } }`,
      {
        s: {
          name: "flexibleRollout",
          title: "Half",
          parameters: { rollout: "50", stickiness: "userId", groupId: "ignored" },
          constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
        },
      },
    );
    await createFlag(t, "enable-project-default", { project: "other" });
    const mark = await lastEventId(t);
    const res = await enable("enable-project-default", "production", undefined, "other");
    expect(res.errors).toBeUndefined();
    const [added] = await eventsAfter(t, mark);
    expect(added?.data).toMatchObject({
      name: "flexibleRollout",
      title: "Half",
      parameters: { rollout: "50", stickiness: "userId", groupId: "enable-project-default" },
      constraints: [
        { contextName: "appName", operator: "IN", values: ["web"], caseInsensitive: false, inverted: false },
      ],
    });
  });

  it("answers NOT_FOUND for an unknown flag, a flag of another project and an environment the flag lacks", async () => {
    const unknown = await enable("no-such-flag");
    expect(unknown.errors?.[0]).toMatchObject({
      message: 'Could not find feature flag "no-such-flag"',
      extensions: { code: "NOT_FOUND" },
    });
    await createFlag(t, "enable-elsewhere", { project: "other" });
    const elsewhere = await enable("enable-elsewhere", "production", undefined, "default");
    expect(elsewhere.errors?.[0]?.message).toBe(
      `There's no feature named "enable-elsewhere" in project "default", but there's a feature with that name in project "other"`,
    );
    await createFlag(t, "enable-no-env");
    const noEnv = await enable("enable-no-env", "staging");
    expect(noEnv.errors?.[0]).toMatchObject({
      message: "Could not find environment staging for feature: enable-no-env",
      extensions: { code: "NOT_FOUND" },
    });
  });

  it("refuses an archived flag with ARCHIVED and records nothing", async () => {
    await createFlag(t, "enable-archived");
    await archiveFlag(t, "enable-archived");
    const mark = await lastEventId(t);
    for (const res of [await enable("enable-archived"), await disable("enable-archived")]) {
      expect(res.errors?.[0]).toMatchObject({
        message: "Cannot perform this operation on archived features",
        extensions: { code: "ARCHIVED" },
      });
    }
    expect(await eventsAfter(t, mark)).toEqual([]);
  });
});

describe("POST .../environments/:environment/on and /off (REST, spec 4.1)", () => {
  it("answers 200 with the Feature record of spec 2.8", async () => {
    await createFlag(t, "rest-on");
    const mark = await lastEventId(t);
    const res = await t.rest("POST", onPath("rest-on", "production"));
    expect(res.status).toBe(200);
    expect(featureSchema.strict().safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      name: "rest-on",
      project: "default",
      enabled: true,
      archived: false,
      environments: [
        { name: "development", enabled: false, hasStrategies: false },
        { name: "production", enabled: true, hasStrategies: true, hasEnabledStrategies: true },
      ],
    });
    expect((await eventsAfter(t, mark)).map((e) => e.type)).toEqual([
      "feature-strategy-add",
      "feature-environment-enabled",
    ]);
    const off = await t.rest(
      "POST",
      "/api/admin/projects/default/features/rest-on/environments/production/off",
    );
    expect(off.status).toBe(200);
    expect(off.body.environments[1]).toMatchObject({ name: "production", enabled: false });
  });

  it("honours ?shouldActivateDisabledStrategies=true", async () => {
    await createFlag(t, "rest-activate");
    const s = await addStrategy(t, "rest-activate", { name: "default", disabled: true });
    const res = await t.rest("POST", `${onPath("rest-activate")}?shouldActivateDisabledStrategies=true`);
    expect(res.status).toBe(200);
    expect(res.body.environments[0].strategies).toEqual([
      expect.objectContaining({ id: s.id, disabled: false }),
    ]);
  });

  it("answers the error bodies: 400 archived, 401, 403, 404", async () => {
    await createFlag(t, "rest-archived");
    await archiveFlag(t, "rest-archived");
    await createFlag(t, "rest-errors");
    const archived = await t.rest("POST", onPath("rest-archived"));
    expect(archived.status).toBe(400);
    expect(archived.body).toMatchObject({
      name: "ArchivedFeatureError",
      message: "Cannot perform this operation on archived features",
    });
    expect(archived.body.id).toEqual(expect.any(String));
    expect((await t.rest("POST", onPath("rest-errors"), undefined, null)).status).toBe(401);
    const viewer = (await userWithPat(t, "viewer-on", "Viewer")).token;
    const forbidden = await t.rest("POST", onPath("rest-errors"), undefined, viewer);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe(
      'You don\'t have the required permissions to perform this operation. To perform this action, you need the "UPDATE_FEATURE_ENVIRONMENT" permission in the "development" environment.',
    );
    const missing = await t.rest("POST", onPath("rest-errors", "staging"));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      name: "NotFoundError",
      message: "Could not find environment staging for feature: rest-errors",
    });
  });

  it("needs SKIP_CHANGE_REQUEST where the project requires change requests (admins pass)", async () => {
    await createFlag(t, "rest-cr");
    await configureChangeRequests(t, "production", 1);
    try {
      const editor = (await userWithPat(t, "editor-cr", "Editor")).token;
      const refused = await t.rest("POST", onPath("rest-cr", "production"), undefined, editor);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(
        /^You don't have the required permissions to perform this operation\. To perform this action, you need the "SKIP_CHANGE_REQUEST" permission\. .*change request/,
      );
      expect((await t.rest("POST", onPath("rest-cr", "development"), undefined, editor)).status).toBe(200);
      expect((await t.rest("POST", onPath("rest-cr", "production"))).status).toBe(200);
    } finally {
      await configureChangeRequests(t, "production", 1, false);
    }
  });
});
