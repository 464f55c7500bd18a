import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, createProject, eventsOf, gqlError, gqlOk } from "../helpers/builders.ts";

// Every test makes the environments it asserts on; the limit leaves room for all of them, and
// the tests of the limit fill it with environments they delete afterwards.
const LIMIT = 12;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UNLEASH_ENVIRONMENTS_LIMIT: String(LIMIT) });
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateEnvironmentInput!) { createEnvironment(input: $input) {
  name type enabled protected sortOrder projectCount enabledToggleCount } }`;
const UPDATE = `mutation($name: String!, $input: UpdateEnvironmentInput!) { updateEnvironment(name: $name, input: $input) {
  name type sortOrder } }`;

/** Runs `check` with environments (named `prefix`-n) up to the limit, then deletes them. */
async function atTheLimit(prefix: string, check: () => Promise<void>) {
  const fillers: string[] = [];
  try {
    for (let n = await t.deps.db.environment.count(); n < LIMIT; n++) {
      const name = `${prefix}-${fillers.length}`;
      await gqlOk(t, CREATE, { input: { name, type: "test" } });
      fillers.push(name);
    }
    await check();
  } finally {
    for (const name of fillers)
      await gqlOk(t, `mutation($n: String!) { deleteEnvironment(name: $n) }`, { n: name });
  }
}

const eventOf = async (type: string, environment: string) =>
  (await eventsOf(t, [type])).filter((e) => e.environment === environment);

describe("environments over GraphQL", () => {
  it("creates an environment linked to no project and records environment-created", async () => {
    const data = await gqlOk(t, CREATE, { input: { name: "created", type: "test", sortOrder: 150 } });
    expect(data.createEnvironment).toEqual({
      name: "created",
      type: "test",
      enabled: true,
      protected: false,
      sortOrder: 150,
      projectCount: 0,
      enabledToggleCount: 0,
    });
    const events = await eventOf("environment-created", "created");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      environment: "created",
      project: null,
      label: "Environment created",
      data: { name: "created", type: "test", enabled: true, protected: false, sortOrder: 150 },
      preData: null,
    });
    const list = await gqlOk(t, `{ environments { name } }`);
    const names = list.environments.map((e: { name: string }) => e.name);
    // In sortOrder: between development (100) and production (200).
    expect(names.filter((n: string) => ["development", "created", "production"].includes(n))).toEqual([
      "development",
      "created",
      "production",
    ]);
  });

  it("refuses a taken name, a bad name or type naming the field, and the limit", async () => {
    await gqlOk(t, CREATE, { input: { name: "taken", type: "test" } });
    expect(await gqlError(t, CREATE, { input: { name: "taken", type: "test" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
    const badName = await gqlError(t, CREATE, { input: { name: "my env", type: "test" } });
    expect(badName.code).toBe("VALIDATION");
    expect(badName.message).toMatch(/^name: /);
    expect((await gqlError(t, CREATE, { input: { name: "qa", type: "" } })).message).toMatch(/^type: /);
    await atTheLimit("graphql-filler", async () => {
      expect(await gqlError(t, CREATE, { input: { name: "over", type: "test" } })).toMatchObject({
        code: "LIMIT_EXCEEDED",
        message: `Failed to create environment. You can't create more than the established limit of ${LIMIT}.`,
      });
    });
  });

  it("updates type and sortOrder with data and preData; unchanged records nothing; unknown is NOT_FOUND", async () => {
    await gqlOk(t, CREATE, { input: { name: "updated", type: "test", sortOrder: 150 } });
    const data = await gqlOk(t, UPDATE, {
      name: "updated",
      input: { type: "preproduction", sortOrder: 250 },
    });
    expect(data.updateEnvironment).toEqual({ name: "updated", type: "preproduction", sortOrder: 250 });
    await gqlOk(t, UPDATE, { name: "updated", input: { sortOrder: 250 } });
    const events = await eventOf("environment-updated", "updated");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      environment: "updated",
      data: { name: "updated", type: "preproduction", sortOrder: 250 },
      preData: { name: "updated", type: "test", sortOrder: 150 },
    });
    expect(await gqlError(t, UPDATE, { name: "nope", input: { sortOrder: 1 } })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await gqlError(t, `{ environment(name: "nope") { name } }`)).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("environments of a project", () => {
  const ENABLE = `mutation($p: String!, $e: String!) { enableProjectEnvironment(project: $p, environment: $e) {
    environments { name } } }`;
  const DISABLE = `mutation($p: String!, $e: String!) { disableProjectEnvironment(project: $p, environment: $e) {
    environments { name } } }`;
  const FLAG_ENVS = `query($f: String!) { feature(name: $f) { environments { name enabled strategies { id } } } }`;

  it("enabling gives every flag of the project a disabled state there", async () => {
    await createProject(t, "enabling", { environments: ["development", "production"] });
    await createFlag(t, "enabling-banner", { project: "enabling" });
    await gqlOk(t, CREATE, { input: { name: "enabled", type: "test", sortOrder: 250 } });
    const data = await gqlOk(t, ENABLE, { p: "enabling", e: "enabled" });
    expect(data.enableProjectEnvironment.environments).toEqual([
      { name: "development" },
      { name: "production" },
      { name: "enabled" },
    ]);
    const flag = await gqlOk(t, FLAG_ENVS, { f: "enabling-banner" });
    expect(flag.feature.environments).toContainEqual({ name: "enabled", enabled: false, strategies: [] });
    const events = await eventOf("project-environment-added", "enabled");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      project: "enabling",
      environment: "enabled",
      data: null,
      preData: null,
    });
    expect(await gqlError(t, ENABLE, { p: "enabling", e: "enabled" })).toMatchObject({ code: "NAME_EXISTS" });
    expect(await gqlError(t, ENABLE, { p: "nope", e: "enabled" })).toMatchObject({ code: "NOT_FOUND" });
    expect(await gqlError(t, ENABLE, { p: "enabling", e: "nope" })).toMatchObject({ code: "NOT_FOUND" });
  });

  it("disabling deletes the flags' state and strategies there, and keeps one environment", async () => {
    await createProject(t, "disabling", { environments: ["development", "production"] });
    await createFlag(t, "disabling-banner", { project: "disabling" });
    await gqlOk(t, CREATE, { input: { name: "disabled", type: "test", sortOrder: 250 } });
    await gqlOk(t, ENABLE, { p: "disabling", e: "disabled" });
    await addStrategy(t, "disabling-banner", { name: "default" }, "disabled", "disabling");
    const data = await gqlOk(t, DISABLE, { p: "disabling", e: "disabled" });
    expect(data.disableProjectEnvironment.environments).toEqual([
      { name: "development" },
      { name: "production" },
    ]);
    const flag = await gqlOk(t, FLAG_ENVS, { f: "disabling-banner" });
    expect(flag.feature.environments.map((e: { name: string }) => e.name)).toEqual([
      "development",
      "production",
    ]);
    expect(await t.deps.db.featureStrategy.count({ where: { environmentName: "disabled" } })).toBe(0);
    const events = await eventOf("project-environment-removed", "disabled");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      project: "disabling",
      environment: "disabled",
      label: "Project environment removed",
    });
    expect(await gqlError(t, DISABLE, { p: "disabling", e: "disabled" })).toMatchObject({
      code: "NOT_FOUND",
    });

    await gqlOk(t, DISABLE, { p: "disabling", e: "development" });
    const last = await gqlError(t, DISABLE, { p: "disabling", e: "production" });
    expect(last).toMatchObject({
      code: "INVALID_OPERATION",
      message: "A project must always have at least one environment enabled.",
    });
  });
});

describe("environments over REST", () => {
  it("GET /api/admin/environments answers {version, environments}", async () => {
    await gqlOk(t, CREATE, { input: { name: "listed", type: "development", sortOrder: 120 } });
    const res = await t.rest("GET", "/api/admin/environments");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.environments.find((e: { name: string }) => e.name === "listed")).toEqual({
      name: "listed",
      type: "development",
      enabled: true,
      protected: false,
      sortOrder: 120,
      projectCount: 0,
      enabledToggleCount: 0,
    });
  });

  it("POST creates (201), 409 on a taken name, 400 naming the field, 400 over the limit", async () => {
    const created = await t.rest("POST", "/api/admin/environments", {
      name: "posted",
      type: "test",
      extra: 1,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "posted", type: "test", enabled: true, sortOrder: 1 });
    const taken = await t.rest("POST", "/api/admin/environments", { name: "posted", type: "test" });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe("NameExistsError");
    const missing = await t.rest("POST", "/api/admin/environments", { name: "x1" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/type/);
    const wrong = await t.rest("POST", "/api/admin/environments", {
      name: "x1",
      type: "t",
      sortOrder: "high",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/sortOrder/);
    await atTheLimit("rest-filler", async () => {
      const over = await t.rest("POST", "/api/admin/environments", { name: "x1", type: "test" });
      expect(over.status).toBe(400);
      expect(over.body.name).toBe("ExceedsLimitError");
    });
  });

  it("GET one, PUT update and the project environment paths", async () => {
    await gqlOk(t, CREATE, { input: { name: "qa", type: "test" } });
    await createProject(t, "rest-paths", { environments: ["production"] });
    expect((await t.rest("GET", "/api/admin/environments/qa")).body.name).toBe("qa");
    expect((await t.rest("GET", "/api/admin/environments/nope")).status).toBe(404);
    const updated = await t.rest("PUT", "/api/admin/environments/update/qa", { sortOrder: 5 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "qa", type: "test", sortOrder: 5 });
    expect((await t.rest("PUT", "/api/admin/environments/update/nope", { sortOrder: 5 })).status).toBe(404);

    const added = await t.rest("POST", "/api/admin/projects/rest-paths/environments", { environment: "qa" });
    expect(added).toMatchObject({ status: 200, body: undefined });
    const overview = async () => (await t.rest("GET", "/api/admin/projects/rest-paths")).body.environments;
    expect(await overview()).toEqual([{ environment: "qa" }, { environment: "production" }]);
    expect(
      (await t.rest("POST", "/api/admin/projects/rest-paths/environments", { environment: "qa" })).status,
    ).toBe(409);
    expect((await t.rest("POST", "/api/admin/projects/rest-paths/environments", {})).status).toBe(400);
    const removed = await t.rest("DELETE", "/api/admin/projects/rest-paths/environments/qa");
    expect(removed).toMatchObject({ status: 200, body: undefined });
    expect(await overview()).toEqual([{ environment: "production" }]);
    const last = await t.rest("DELETE", "/api/admin/projects/rest-paths/environments/production");
    expect(last.status).toBe(403);
    expect(last.body.name).toBe("InvalidOperationError");
  });
});
