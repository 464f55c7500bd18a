import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  apiToken,
  createFlag,
  createProject,
  createSegment,
  enableFlag,
  gqlOk,
  soleVariant,
} from "../helpers/builders.ts";
import { type Result, wsClient } from "../live/live-helpers.ts";

let t: TestApp;
let server: RunningServer;

const create = (name: string, project = "default") => createFlag(t, name, { project });
const enable = (feature: string, environment = "development") => enableFlag(t, feature, environment);

const FIELDS = `name project enabled onInEnvironment reason impressionData
  variant { name enabled featureEnabled payload { type value } }
  unsatisfiedDependency { parent enabled variants }
  matchedStrategy { id name }
  strategies { id name disabled known result parameters missingContext
    constraints { contextName operator values value contextValue result }
    segments { id name result constraints { contextName result } }
    rollout { stickiness bucket percentage } }
  variantRule { source override contextName contextValue stickiness bucket totalWeight }`;

const evaluate = (context: Record<string, unknown>, extra: Record<string, unknown> = {}, token?: string) =>
  t.gql<{ evaluate: any[] }>(
    `query($env: String!, $ctx: EvaluationContextInput!, $flags: [String!], $projects: [String!]) {
      evaluate(environment: $env, context: $ctx, flags: $flags, projects: $projects) { ${FIELDS} } }`,
    { env: "development", ctx: context, ...extra },
    token,
  );

let segmentId: number;

beforeAll(async () => {
  t = await createTestApp();
  segmentId = await createSegment(t, "beta-users", {
    constraints: [{ contextName: "plan", operator: "IN", values: ["beta"] }],
  });
  await createFlag(t, "checkout", {
    strategies: [
      { name: "default", disabled: true },
      {
        name: "flexibleRollout",
        parameters: { rollout: "100", stickiness: "default", groupId: "checkout" },
        constraints: [{ contextName: "country", operator: "IN", values: ["NO", "SE"] }],
        segments: [segmentId],
        variants: [soleVariant("blue", { type: "string", value: "b" })],
      },
    ],
    enabledIn: ["development"],
  });
  await create("child");
  await addDependency(t, "child", "checkout", { variants: ["green"] });
  await enable("child");
  await createFlag(t, "off", { strategies: [{ name: "userWithId", parameters: { userIds: "u1,u2" } }] });
  await createFlag(t, "everyone", { enabledIn: ["development"] });
  await createProject(t, "other", { name: "Other" });
  await create("elsewhere", "other");
  server = await listen(t.app, "127.0.0.1", 0);
});
afterAll(async () => {
  await server?.close(0);
  await t?.close();
});

const matching = { userId: "u1", properties: { country: "NO", plan: "beta" } };

describe("GraphQL evaluate", () => {
  it("explains a match: the strategy, each constraint and segment, the variant rule", async () => {
    const res = await evaluate(matching, { flags: ["checkout"] });
    expect(res.errors).toBeUndefined();
    const [flag] = res.data!.evaluate;
    expect(flag).toMatchObject({
      name: "checkout",
      project: "default",
      enabled: true,
      onInEnvironment: true,
      reason: "STRATEGY_MATCHED",
      variant: { name: "blue", enabled: true, featureEnabled: true, payload: { type: "string", value: "b" } },
      matchedStrategy: { name: "flexibleRollout" },
      variantRule: { source: "STRATEGY", override: false, stickiness: "default", totalWeight: 1000 },
    });
    expect(flag.strategies).toHaveLength(2);
    expect(flag.strategies[0]).toMatchObject({ name: "default", disabled: true, result: false });
    expect(flag.strategies[1]).toMatchObject({
      known: true,
      result: true,
      constraints: [{ contextName: "country", contextValue: "NO", result: true }],
      segments: [{ id: segmentId, name: "beta-users", result: true }],
      rollout: { stickiness: "default", percentage: 100 },
      parameters: { rollout: "100", groupId: "checkout" },
    });
  });

  it("says which constraint or segment failed", async () => {
    const country = (
      await evaluate({ ...matching, properties: { country: "DK", plan: "beta" } }, { flags: ["checkout"] })
    ).data!.evaluate[0];
    expect(country).toMatchObject({ enabled: false, reason: "NO_STRATEGY_MATCHED", matchedStrategy: null });
    expect(country.strategies[1].constraints).toEqual([
      expect.objectContaining({ contextName: "country", contextValue: "DK", result: false }),
    ]);
    const segment = (
      await evaluate({ ...matching, properties: { country: "NO", plan: "free" } }, { flags: ["checkout"] })
    ).data!.evaluate[0];
    expect(segment.strategies[1].segments).toEqual([
      expect.objectContaining({ name: "beta-users", result: false }),
    ]);
  });

  it("a dependency on a parent variant, a flag that is off (with what its strategies would say), an unknown flag", async () => {
    const res = await evaluate(matching, { flags: ["child", "off", "nope"] });
    const [child, off, nope] = res.data!.evaluate;
    expect(child).toMatchObject({
      enabled: false,
      reason: "DEPENDENCY_NOT_SATISFIED",
      unsatisfiedDependency: { parent: "checkout", enabled: true, variants: ["green"] },
    });
    expect(off).toMatchObject({ enabled: false, onInEnvironment: false, reason: "FLAG_DISABLED" });
    expect(off.strategies).toEqual([expect.objectContaining({ name: "userWithId", result: true })]);
    expect(nope).toMatchObject({ enabled: false, project: null, reason: "UNKNOWN_FLAG", strategies: [] });
  });

  it("every flag of the environment by default, limited to the projects asked", async () => {
    // Every flag: those of beforeAll, and whatever flags the file's other tests made before this one.
    const flags = await gqlOk(t, `{ features(first: 1000) { edges { node { name } } } }`);
    const existing = flags.features.edges.map((e: { node: { name: string } }) => e.node.name).sort();
    expect(existing).toEqual(expect.arrayContaining(["checkout", "child", "elsewhere", "everyone", "off"]));
    const all = (await evaluate({})).data!.evaluate.map((f: { name: string }) => f.name).sort();
    expect(all).toEqual(existing);
    const other = await evaluate({}, { projects: ["other"] });
    expect(other.data!.evaluate.map((f: { name: string }) => f.name)).toEqual(["elsewhere"]);
    const everyone = (await evaluate({}, { flags: ["everyone"] })).data!.evaluate[0];
    expect(everyone).toMatchObject({
      enabled: true,
      reason: "STRATEGY_MATCHED",
      matchedStrategy: { name: "flexibleRollout" },
    });
  });

  it("reads the other environment's configuration", async () => {
    const res = await t.gql<{ evaluate: any[] }>(
      `{ evaluate(environment: "production", context: {}, flags: ["everyone"]) { enabled reason } }`,
    );
    expect(res.data!.evaluate).toEqual([{ enabled: false, reason: "FLAG_DISABLED" }]);
  });

  it("follows changes at once", async () => {
    await create("fresh");
    expect((await evaluate({}, { flags: ["fresh"] })).data!.evaluate[0].enabled).toBe(false);
    await enable("fresh");
    expect((await evaluate({}, { flags: ["fresh"] })).data!.evaluate[0].enabled).toBe(true);
  });

  it("refuses an unknown environment, malformed properties and no credential", async () => {
    const env = await t.gql(`{ evaluate(environment: "nope", context: {}) { name } }`);
    expect(env.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const props = await evaluate({ properties: { nested: { a: 1 } } });
    expect(props.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    const list = await evaluate({ properties: [1, 2] });
    expect(list.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    const anonymous = await evaluate({}, {}, null as unknown as string);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("an SDK token cannot use the admin playground", async () => {
    const res = await evaluate({}, {}, await apiToken(t, "client", "development", ["*"]));
    expect(res.errors?.[0]?.extensions?.code).toMatch(/FORBIDDEN|UNAUTHENTICATED/);
  });

  it("evaluateMany: every environment and context pair, bounded", async () => {
    const res = await t.gql<{ evaluateMany: any[] }>(
      `{ evaluateMany(environments: ["development", "production"], contexts: [{ userId: "u1" }, { userId: "u9" }],
          flags: ["everyone"]) { environment contextIndex flags { name enabled } } }`,
    );
    expect(res.data!.evaluateMany).toEqual([
      { environment: "development", contextIndex: 0, flags: [{ name: "everyone", enabled: true }] },
      { environment: "development", contextIndex: 1, flags: [{ name: "everyone", enabled: true }] },
      { environment: "production", contextIndex: 0, flags: [{ name: "everyone", enabled: false }] },
      { environment: "production", contextIndex: 1, flags: [{ name: "everyone", enabled: false }] },
    ]);
    const contexts = Array.from({ length: 51 }, (_, i) => ({ userId: String(i) }));
    const tooMany = await t.gql(
      `query($c: [EvaluationContextInput!]!) { evaluateMany(environments: ["development", "production"], contexts: $c) { contextIndex } }`,
      { c: contexts },
    );
    expect(tooMany.errors?.[0]?.extensions?.code).toBe("VALIDATION");
  });
});

describe("REST playground (Unleash's shape)", () => {
  it("POST /api/admin/playground answers playgroundResponseSchema", async () => {
    const input = {
      environment: "development",
      projects: "*",
      context: { appName: "web", userId: "u1", country: "NO", properties: { plan: "beta" } },
    };
    const res = await t.rest("POST", "/api/admin/playground", input);
    expect(res.status).toBe(200);
    expect(res.body.input).toEqual(input);
    const checkout = res.body.features.find((f: { name: string }) => f.name === "checkout");
    expect(checkout).toMatchObject({
      name: "checkout",
      projectId: "default",
      isEnabled: true,
      isEnabledInCurrentEnvironment: true,
      hasUnsatisfiedDependency: false,
      variant: {
        name: "blue",
        enabled: true,
        payload: { type: "string", value: "b" },
        feature_enabled: true,
      },
      variants: [],
      strategies: { result: true },
    });
    expect(checkout.strategies.data[0]).toMatchObject({
      name: "default",
      disabled: true,
      result: { evaluationStatus: "unevaluated", enabled: false },
    });
    expect(checkout.strategies.data[1]).toMatchObject({
      name: "flexibleRollout",
      disabled: false,
      result: { evaluationStatus: "complete", enabled: true, variant: { name: "blue" } },
      constraints: [
        { contextName: "country", operator: "IN", values: ["NO", "SE"], inverted: false, result: true },
      ],
      segments: [{ id: segmentId, name: "beta-users", result: true }],
      parameters: { rollout: "100" },
    });
    expect(checkout.strategies.data[1].links.edit).toContain(
      "/projects/default/features/checkout/strategies/edit",
    );
    const child = res.body.features.find((f: { name: string }) => f.name === "child");
    expect(child).toMatchObject({ isEnabled: false, hasUnsatisfiedDependency: true });
  });

  it("a custom strategy is unknown, not false, when its constraints hold", async () => {
    await createFlag(t, "custom", {
      strategies: [{ name: "myCustomStrategy", parameters: { x: "1" } }],
      enabledIn: ["development"],
    });
    const res = await t.rest("POST", "/api/admin/playground", { environment: "development", context: {} });
    const custom = res.body.features.find((f: { name: string }) => f.name === "custom");
    expect(custom).toMatchObject({ isEnabled: false, strategies: { result: "unknown" } });
    expect(custom.strategies.data[0].result).toEqual({ evaluationStatus: "incomplete", enabled: "unknown" });
  });

  it("POST /api/admin/playground/advanced: every combination of comma-separated values, per environment", async () => {
    const res = await t.rest("POST", "/api/admin/playground/advanced", {
      environments: ["development", "production"],
      projects: ["default"],
      context: { appName: "web", userId: "u1,u2", properties: { country: "NO,DK", plan: "beta" } },
    });
    expect(res.status).toBe(200);
    const checkout = res.body.features.find((f: { name: string }) => f.name === "checkout");
    expect(Object.keys(checkout.environments)).toEqual(["development", "production"]);
    const dev = checkout.environments.development;
    expect(dev).toHaveLength(4);
    expect(
      dev.map((e: { context: Record<string, string>; isEnabled: boolean }) => [
        e.context.userId,
        e.context.country,
        e.isEnabled,
      ]),
    ).toEqual([
      ["u1", "NO", true],
      ["u1", "DK", false],
      ["u2", "NO", true],
      ["u2", "DK", false],
    ]);
    expect(dev[0]).toMatchObject({ environment: "development", projectId: "default", name: "checkout" });
    expect(checkout.environments.production.every((e: { isEnabled: boolean }) => !e.isEnabled)).toBe(true);
  });

  it("bad input: 400 in the spec's body, never GraphQL wording; unknown environment 404", async () => {
    for (const body of [
      { environment: "development" },
      { environment: "development", context: "x" },
      { environment: "development", context: { nested: { a: 1 } } },
      { environment: "development", context: {}, projects: 5 },
      { context: {} },
    ]) {
      const res = await t.rest("POST", "/api/admin/playground", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({
        id: expect.any(String),
        name: "ValidationError",
        message: expect.any(String),
      });
      expect(res.body.message).not.toMatch(/Variable "\$|GraphQL/);
    }
    const unknown = await t.rest("POST", "/api/admin/playground", { environment: "nope", context: {} });
    expect(unknown.status).toBe(404);
    const combos = Array.from({ length: 101 }, (_, i) => `u${i}`).join(",");
    const tooMany = await t.rest("POST", "/api/admin/playground/advanced", {
      environments: ["development"],
      context: { userId: combos },
    });
    expect(tooMany.status).toBe(400);
  });
});

describe("evaluatedFlags subscription", () => {
  type Message = Result<{ evaluatedFlags: { name: string; enabled: boolean; variant: { name: string } }[] }>;

  it("sends the evaluations, then one message per change that alters them, none for others", async () => {
    await create("live-a");
    await create("live-b");
    const client = wsClient(server.url);
    const stream = client.iterate({
      query: `subscription { evaluatedFlags(environment: "development", context: { userId: "u1" },
        flags: ["live-a", "live-b"]) { name enabled variant { name } } }`,
    }) as AsyncIterableIterator<Message>;
    const next = async () => {
      const item = await stream.next();
      expect(item.done).toBe(false);
      expect(item.value.errors).toBeUndefined();
      const message = item.value as Message;
      return message.data?.evaluatedFlags.map((f) => [f.name, f.enabled]);
    };
    expect(await next()).toEqual([
      ["live-a", false],
      ["live-b", false],
    ]);
    // Changes that alter nothing for this context (another environment, a description) send nothing.
    await enable("live-a", "production");
    await gqlOk(
      t,
      `mutation { updateFeature(project: "default", name: "live-b", input: { description: "x" }) { name } }`,
    );
    await enable("live-a");
    expect(await next()).toEqual([
      ["live-a", true],
      ["live-b", false],
    ]);
    await enable("live-b");
    expect(await next()).toEqual([
      ["live-a", true],
      ["live-b", true],
    ]);
    await client.dispose();
  });

  it("refuses an unknown environment", async () => {
    const client = wsClient(server.url);
    const stream = client.iterate({
      query: `subscription { evaluatedFlags(environment: "nope", context: {}) { name } }`,
    }) as AsyncIterableIterator<Message>;
    const first = await stream.next().catch((errors) => ({ value: { errors }, done: false }));
    expect(JSON.stringify(first.value)).toContain("does not exist");
    await client.dispose();
  });
});
