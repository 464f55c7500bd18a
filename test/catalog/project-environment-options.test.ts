import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableChange, propose } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  changeRequestConfig,
  createFlag,
  eventsOf,
  gqlError,
  gqlOk,
  type TestUser,
  turnOnOverRest,
  userWithPat,
} from "../helpers/builders.ts";

/**
 * Unleash's addEnvironmentToProject options (issue 14): `defaultStrategy` and
 * `changeRequestsEnabled` are applied with the environment, in one transaction, with the events
 * the default-strategy and change-request configuration operations record on their own.
 */
let t: TestApp;
let editor: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "env-editor", "Editor");
  // One environment (or two) per test: each test links only its own to project default.
  for (const name of ["qa", "qa-separate", "review", "bad", "gql", "refused", "enabled-twice", "kept"]) {
    expect((await t.rest("POST", "/api/admin/environments", { name, type: "test" })).status).toBe(201);
  }
  await createFlag(t, "checkout");
  const region = await t.rest("POST", "/api/admin/context", {
    name: "region",
    legalValues: [{ value: "eu" }],
  });
  expect(region.status).toBe(201);
});
afterAll(() => t.close());

const ADD = "/api/admin/projects/default/environments";
const TYPES = [
  "project-environment-added",
  "default-strategy-updated",
  "change-request-configuration-updated",
];
const eventsIn = async (environment: string) =>
  (await eventsOf(t, TYPES)).filter((e) => e.environment === environment);
const linked = async (environment: string) =>
  t.database.prisma.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId: "default", environmentName: environment } },
  });
const strategiesOf = async (environment: string) =>
  (
    await t.rest(
      "GET",
      `/api/admin/projects/default/features/checkout/environments/${environment}/strategies`,
    )
  ).body;

const ROLLOUT = {
  name: "flexibleRollout",
  parameters: { rollout: 40, stickiness: "userId" },
  constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
};

describe("POST /api/admin/projects/{projectId}/environments with options", () => {
  it("defaultStrategy becomes the environment's default strategy, recorded as the default-strategy route records it", async () => {
    const res = await t.rest("POST", ADD, { environment: "qa", defaultStrategy: ROLLOUT });
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    const recorded = await eventsIn("qa");
    expect(recorded.map((e) => e.type)).toEqual(["project-environment-added", "default-strategy-updated"]);
    expect(recorded[1]).toMatchObject({
      project: "default",
      preData: null,
      data: { name: "flexibleRollout", parameters: { rollout: "40", stickiness: "userId" } },
    });

    // The same done in two calls stores and records the same strategy.
    expect((await t.rest("POST", ADD, { environment: "qa-separate" })).status).toBe(200);
    const separate = await t.rest(
      "POST",
      "/api/admin/projects/default/environments/qa-separate/default-strategy",
      ROLLOUT,
    );
    expect(separate.status).toBe(200);
    const [, alone] = await eventsIn("qa-separate");
    expect(alone?.data).toEqual(recorded[1]?.data);
    expect((await linked("qa"))?.defaultStrategy).toEqual((await linked("qa-separate"))?.defaultStrategy);

    // Enabling a flag there without strategies adds that strategy.
    expect(await strategiesOf("qa")).toEqual([]);
    const on = await turnOnOverRest(t, "checkout", "qa");
    expect(on.status).toBe(200);
    expect(await strategiesOf("qa")).toEqual([
      expect.objectContaining({
        name: "flexibleRollout",
        parameters: expect.objectContaining({ rollout: "40", stickiness: "userId", groupId: "checkout" }),
        constraints: [expect.objectContaining({ contextName: "appName", operator: "IN", values: ["web"] })],
      }),
    ]);
    // No change requests were asked for: none are required, nothing recorded about them.
    expect(await changeRequestConfig(t, "qa")).toMatchObject({
      changeRequestEnabled: false,
      requiredApprovals: null,
    });
  });

  it("changeRequestsEnabled: true requires change requests there, with 1 approval", async () => {
    // An Editor may raise the protection (UPDATE_PROJECT), as with the configuration route.
    const res = await t.rest(
      "POST",
      ADD,
      { environment: "review", changeRequestsEnabled: true },
      editor.token,
    );
    expect(res.status).toBe(200);
    expect(await changeRequestConfig(t, "review")).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 1,
    });
    const recorded = await eventsIn("review");
    expect(recorded.map((e) => e.type)).toEqual([
      "project-environment-added",
      "change-request-configuration-updated",
    ]);
    expect(recorded[1]).toMatchObject({
      data: { changeRequestsEnabled: true, requiredApprovals: 1 },
      preData: { changeRequestsEnabled: false, requiredApprovals: null },
    });
    const direct = await turnOnOverRest(t, "checkout", "review", editor.token);
    expect(direct.status).toBe(403);
    expect(direct.body.message).toContain("requires change requests");
    const proposed = await propose(t, "review", enableChange("checkout"), editor.token);
    expect(proposed.status).toBe(200);
  });

  it("a bad default strategy is a 400 and adds nothing: no environment, no state, no event", async () => {
    const bad = [
      { name: "" },
      { parameters: {} },
      { name: "default", constraints: [{ contextName: "appName", operator: "BOGUS" }] },
      { name: "default", constraints: [{ contextName: "region", operator: "IN", values: ["mars"] }] },
      { name: "default", segments: [98765] },
    ];
    for (const defaultStrategy of bad) {
      const res = await t.rest("POST", ADD, {
        environment: "bad",
        defaultStrategy,
        changeRequestsEnabled: true,
      });
      expect(res.status, JSON.stringify(defaultStrategy)).toBe(400);
      expect(res.body.name).toBe("ValidationError");
      // Each problem names the body field it sits in.
      expect(res.body.details[0].path).toMatch(/^defaultStrategy\./);
    }
    expect(await linked("bad")).toBeNull();
    expect(await t.database.prisma.featureEnvironment.count({ where: { environmentName: "bad" } })).toBe(0);
    expect(await t.database.prisma.changeRequestSetting.count({ where: { environmentName: "bad" } })).toBe(0);
    expect(await eventsIn("bad")).toEqual([]);
    // The environment itself is still free to add.
    expect((await t.rest("POST", ADD, { environment: "bad" })).status).toBe(200);
  });
});

describe("enableProjectEnvironment over GraphQL with options", () => {
  const ENABLE = `mutation($e: String!, $s: StrategyInput, $cr: Boolean) {
    enableProjectEnvironment(project: "default", environment: $e, defaultStrategy: $s, changeRequestsEnabled: $cr) {
      environments { name } } }`;
  const TURN_ON = `mutation($e: String!) {
    enableFeatureEnvironment(project: "default", feature: "checkout", environment: $e) {
      environments { name strategies { name parameters } } } }`;

  it("adds the environment with its default strategy and change requests, in that order of events", async () => {
    const data = await gqlOk(t, ENABLE, {
      e: "gql",
      s: { name: "flexibleRollout", parameters: { rollout: 75, stickiness: "default" } },
      cr: true,
    });
    expect(data.enableProjectEnvironment.environments).toContainEqual({ name: "gql" });
    expect((await eventsIn("gql")).map((e) => e.type)).toEqual(TYPES);
    const config = await gqlOk(
      t,
      `{ changeRequestConfig(project: "default") { environment changeRequestEnabled requiredApprovals } }`,
    );
    expect(config.changeRequestConfig).toContainEqual({
      environment: "gql",
      changeRequestEnabled: true,
      requiredApprovals: 1,
    });
    // Change requests are required there for whoever may not skip them.
    const refused = await t.gql(TURN_ON, { e: "gql" }, editor.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // An Admin may skip them: the flag gets the default strategy.
    const on = await gqlOk(t, TURN_ON, { e: "gql" });
    const env = on.enableFeatureEnvironment.environments.find((e: { name: string }) => e.name === "gql");
    expect(env.strategies).toEqual([
      {
        name: "flexibleRollout",
        parameters: expect.objectContaining({ rollout: "75", groupId: "checkout" }),
      },
    ]);
  });

  it("a refused default strategy adds nothing; an already enabled environment is NAME_EXISTS", async () => {
    const refused = await gqlError(t, ENABLE, {
      e: "refused",
      s: { name: "default", segments: [98765] },
      cr: true,
    });
    expect(refused.code).toBe("VALIDATION");
    expect(await linked("refused")).toBeNull();
    expect(await eventsIn("refused")).toEqual([]);
    await gqlOk(t, ENABLE, { e: "enabled-twice" });
    expect(await gqlError(t, ENABLE, { e: "enabled-twice", s: { name: "default" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
  });

  it("a setting kept from an earlier time is left as it is by true, and turning it off needs an Admin", async () => {
    const DISABLE = `mutation { disableProjectEnvironment(project: "default", environment: "kept") { id } }`;
    const CONFIG = `mutation { updateChangeRequestConfig(project: "default", environment: "kept",
      changeRequestsEnabled: true, requiredApprovals: 3) { environment } }`;
    await gqlOk(t, ENABLE, { e: "kept" });
    await gqlOk(t, CONFIG);
    await gqlOk(t, DISABLE);
    const before = (await eventsIn("kept")).length;
    // true: already required (3 approvals kept), nothing recorded about it.
    await gqlOk(t, ENABLE, { e: "kept", cr: true });
    expect(await changeRequestConfig(t, "kept")).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 3,
    });
    expect((await eventsIn("kept")).slice(before).map((e) => e.type)).toEqual(["project-environment-added"]);
    await gqlOk(t, DISABLE);
    // false lowers the protection: an Editor is refused and nothing is added.
    const byEditor = await t.gql(ENABLE, { e: "kept", cr: false }, editor.token);
    expect(byEditor.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await linked("kept")).toBeNull();
    await gqlOk(t, ENABLE, { e: "kept", cr: false });
    expect(await changeRequestConfig(t, "kept")).toMatchObject({
      changeRequestEnabled: false,
      requiredApprovals: null,
    });
    expect((await eventsIn("kept")).at(-1)).toMatchObject({
      type: "change-request-configuration-updated",
      data: { changeRequestsEnabled: false, requiredApprovals: null },
      preData: { changeRequestsEnabled: true, requiredApprovals: 3 },
    });
  });
});
