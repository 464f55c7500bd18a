import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, eventsOf, gqlError, gqlOk } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UNLEASH_ENVIRONMENTS_LIMIT: "4" });
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateEnvironmentInput!) { createEnvironment(input: $input) {
  name type enabled protected sortOrder projectCount enabledToggleCount } }`;
const UPDATE = `mutation($name: String!, $input: UpdateEnvironmentInput!) { updateEnvironment(name: $name, input: $input) {
  name type sortOrder } }`;

describe("environments over GraphQL", () => {
  it("creates an environment linked to no project and records environment-created", async () => {
    const data = await gqlOk(t, CREATE, { input: { name: "staging", type: "test", sortOrder: 150 } });
    expect(data.createEnvironment).toEqual({
      name: "staging",
      type: "test",
      enabled: true,
      protected: false,
      sortOrder: 150,
      projectCount: 0,
      enabledToggleCount: 0,
    });
    const [event] = await eventsOf(t, ["environment-created"]);
    expect(event).toMatchObject({
      environment: "staging",
      project: null,
      label: "Environment created",
      data: { name: "staging", type: "test", enabled: true, protected: false, sortOrder: 150 },
      preData: null,
    });
    const list = await gqlOk(t, `{ environments { name } }`);
    expect(list.environments.map((e: { name: string }) => e.name)).toEqual([
      "development",
      "staging",
      "production",
    ]);
  });

  it("refuses a taken name, a bad name or type naming the field, and the limit", async () => {
    expect(await gqlError(t, CREATE, { input: { name: "staging", type: "test" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
    const badName = await gqlError(t, CREATE, { input: { name: "my env", type: "test" } });
    expect(badName.code).toBe("VALIDATION");
    expect(badName.message).toMatch(/^name: /);
    expect((await gqlError(t, CREATE, { input: { name: "qa", type: "" } })).message).toMatch(/^type: /);
    await gqlOk(t, CREATE, { input: { name: "qa", type: "test" } });
    expect(await gqlError(t, CREATE, { input: { name: "fifth", type: "test" } })).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: "Failed to create environment. You can't create more than the established limit of 4.",
    });
  });

  it("updates type and sortOrder with data and preData; unchanged records nothing; unknown is NOT_FOUND", async () => {
    const data = await gqlOk(t, UPDATE, {
      name: "staging",
      input: { type: "preproduction", sortOrder: 250 },
    });
    expect(data.updateEnvironment).toEqual({ name: "staging", type: "preproduction", sortOrder: 250 });
    await gqlOk(t, UPDATE, { name: "staging", input: { sortOrder: 250 } });
    const events = await eventsOf(t, ["environment-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      environment: "staging",
      data: { name: "staging", type: "preproduction", sortOrder: 250 },
      preData: { name: "staging", type: "test", sortOrder: 150 },
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
    await createFlag(t, "banner");
    const data = await gqlOk(t, ENABLE, { p: "default", e: "staging" });
    expect(data.enableProjectEnvironment.environments).toEqual([
      { name: "development" },
      { name: "production" },
      { name: "staging" },
    ]);
    const flag = await gqlOk(t, FLAG_ENVS, { f: "banner" });
    expect(flag.feature.environments).toContainEqual({ name: "staging", enabled: false, strategies: [] });
    const [event] = await eventsOf(t, ["project-environment-added"]);
    expect(event).toMatchObject({ project: "default", environment: "staging", data: null, preData: null });
    expect(await gqlError(t, ENABLE, { p: "default", e: "staging" })).toMatchObject({ code: "NAME_EXISTS" });
    expect(await gqlError(t, ENABLE, { p: "nope", e: "staging" })).toMatchObject({ code: "NOT_FOUND" });
    expect(await gqlError(t, ENABLE, { p: "default", e: "nope" })).toMatchObject({ code: "NOT_FOUND" });
  });

  it("disabling deletes the flags' state and strategies there, and keeps one environment", async () => {
    await addStrategy(t, "banner", { name: "default" }, "staging");
    const data = await gqlOk(t, DISABLE, { p: "default", e: "staging" });
    expect(data.disableProjectEnvironment.environments).toEqual([
      { name: "development" },
      { name: "production" },
    ]);
    const flag = await gqlOk(t, FLAG_ENVS, { f: "banner" });
    expect(flag.feature.environments.map((e: { name: string }) => e.name)).toEqual([
      "development",
      "production",
    ]);
    expect(await t.deps.db.featureStrategy.count({ where: { environmentName: "staging" } })).toBe(0);
    const [event] = await eventsOf(t, ["project-environment-removed"]);
    expect(event).toMatchObject({
      project: "default",
      environment: "staging",
      label: "Project environment removed",
    });
    expect(await gqlError(t, DISABLE, { p: "default", e: "staging" })).toMatchObject({ code: "NOT_FOUND" });

    await gqlOk(t, DISABLE, { p: "default", e: "development" });
    const last = await gqlError(t, DISABLE, { p: "default", e: "production" });
    expect(last).toMatchObject({
      code: "INVALID_OPERATION",
      message: "A project must always have at least one environment enabled.",
    });
  });
});

describe("environments over REST", () => {
  it("GET /api/admin/environments answers {version, environments}", async () => {
    const res = await t.rest("GET", "/api/admin/environments");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.environments.find((e: { name: string }) => e.name === "development")).toEqual({
      name: "development",
      type: "development",
      enabled: true,
      protected: false,
      sortOrder: 100,
      projectCount: 0,
      enabledToggleCount: 0,
    });
  });

  it("POST creates (201), 409 on a taken name, 400 naming the field, 400 over the limit", async () => {
    // Direct write: no API deletes an environment (Unleash's neither); creating it again over REST
    // needs its name and its place under the limit, both taken by the GraphQL test above.
    await t.deps.db.environment.delete({ where: { name: "qa" } });
    const created = await t.rest("POST", "/api/admin/environments", { name: "qa", type: "test", extra: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "qa", type: "test", enabled: true, sortOrder: 1 });
    const taken = await t.rest("POST", "/api/admin/environments", { name: "qa", type: "test" });
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
    const over = await t.rest("POST", "/api/admin/environments", { name: "x1", type: "test" });
    expect(over.status).toBe(400);
    expect(over.body.name).toBe("ExceedsLimitError");
  });

  it("GET one, PUT update and the project environment paths", async () => {
    expect((await t.rest("GET", "/api/admin/environments/qa")).body.name).toBe("qa");
    expect((await t.rest("GET", "/api/admin/environments/nope")).status).toBe(404);
    const updated = await t.rest("PUT", "/api/admin/environments/update/qa", { sortOrder: 5 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "qa", type: "test", sortOrder: 5 });
    expect((await t.rest("PUT", "/api/admin/environments/update/nope", { sortOrder: 5 })).status).toBe(404);

    const added = await t.rest("POST", "/api/admin/projects/default/environments", { environment: "qa" });
    expect(added).toMatchObject({ status: 200, body: undefined });
    const overview = async () => (await t.rest("GET", "/api/admin/projects/default")).body.environments;
    expect(await overview()).toEqual([{ environment: "qa" }, { environment: "production" }]);
    expect(
      (await t.rest("POST", "/api/admin/projects/default/environments", { environment: "qa" })).status,
    ).toBe(409);
    expect((await t.rest("POST", "/api/admin/projects/default/environments", {})).status).toBe(400);
    const removed = await t.rest("DELETE", "/api/admin/projects/default/environments/qa");
    expect(removed).toMatchObject({ status: 200, body: undefined });
    expect(await overview()).toEqual([{ environment: "production" }]);
    const last = await t.rest("DELETE", "/api/admin/projects/default/environments/production");
    expect(last.status).toBe(403);
    expect(last.body.name).toBe("InvalidOperationError");
  });
});
