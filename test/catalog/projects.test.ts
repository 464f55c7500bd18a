import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  createFlag,
  createTagType,
  eventsOf,
  favoriteProject,
  gqlError,
  gqlOk,
  personalToken,
} from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UNLEASH_PROJECTS_LIMIT: "4" });
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateProjectInput!) { createProject(input: $input) {
  id: databaseId name description featureCount mode archivedAt environments { name } } }`;

describe("projects over GraphQL", () => {
  it("creates a project linked to every enabled environment and records project-created", async () => {
    t.setNow(new Date("2026-03-01T10:00:00.000Z"));
    const data = await gqlOk(t, CREATE, { input: { id: "checkout", name: "Checkout", description: "Pay" } });
    t.setNow(null);
    expect(data.createProject).toEqual({
      id: "checkout",
      name: "Checkout",
      description: "Pay",
      featureCount: 0,
      mode: "open",
      archivedAt: null,
      environments: [{ name: "development" }, { name: "production" }],
    });
    const [event] = await eventsOf(t, ["project-created"]);
    expect(event).toMatchObject({
      type: "project-created",
      project: "checkout",
      createdBy: "admin-token",
      preData: null,
      label: "Project created",
      data: {
        id: "checkout",
        name: "Checkout",
        description: "Pay",
        mode: "open",
        defaultStickiness: "default",
        featureLimit: null,
        archived: false,
        environments: ["development", "production"],
      },
    });
    const read = await gqlOk(t, `{ project(id: "checkout") { createdAt updatedAt } }`);
    expect(read.project).toEqual({
      createdAt: "2026-03-01T10:00:00.000Z",
      updatedAt: "2026-03-01T10:00:00.000Z",
    });
  });

  it("derives a free id from the name when none is given, and links only the chosen environments", async () => {
    const first = await gqlOk(t, CREATE, { input: { name: "Check Out!", environments: ["production"] } });
    expect(first.createProject).toMatchObject({ id: "check-out", environments: [{ name: "production" }] });
    const second = await gqlOk(t, CREATE, { input: { name: "Check out" } });
    expect(second.createProject.id).toBe("check-out-2");
  });

  it("refuses a taken id (NAME_EXISTS), a bad id or name (VALIDATION naming the field), unknown environments", async () => {
    expect(await gqlError(t, CREATE, { input: { id: "checkout", name: "Again" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
    const badId = await gqlError(t, CREATE, { input: { id: "not ok", name: "X" } });
    expect(badId.code).toBe("VALIDATION");
    expect(badId.message).toMatch(/^id: /);
    const badName = await gqlError(t, CREATE, { input: { id: "fine", name: "  " } });
    expect(badName.message).toMatch(/^name: /);
    const badEnv = await gqlError(t, CREATE, { input: { id: "fine", name: "Fine", environments: ["nope"] } });
    expect(badEnv).toMatchObject({
      code: "VALIDATION",
      message: "environments: unknown environment(s) nope",
    });
    expect(
      (await gqlOk(t, `{ projects { id: databaseId } }`)).projects.map((p: { id: string }) => p.id),
    ).not.toContain("fine");
  });

  it("updates name and description, recording data and preData; an unchanged update records nothing", async () => {
    const UPDATE = `mutation($id: String!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) {
      id: databaseId name description } }`;
    const data = await gqlOk(t, UPDATE, {
      id: "checkout",
      input: { name: "Checkout v2", description: null },
    });
    expect(data.updateProject).toEqual({ id: "checkout", name: "Checkout v2", description: null });
    await gqlOk(t, UPDATE, { id: "checkout", input: { name: "Checkout v2" } });
    const events = await eventsOf(t, ["project-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      project: "checkout",
      data: { id: "checkout", name: "Checkout v2", description: null },
      preData: { id: "checkout", name: "Checkout", description: "Pay" },
    });
    expect(await gqlError(t, UPDATE, { id: "nope", input: { name: "X" } })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await gqlError(t, UPDATE, { id: "checkout", input: { name: "" } })).message).toMatch(/^name: /);
  });

  it("refuses to archive a project with active flags, archives an empty one and revives it", async () => {
    await createFlag(t, "pay-button", { project: "checkout" });
    const refused = await gqlError(t, `mutation { archiveProject(id: "checkout") { id: databaseId } }`);
    expect(refused.code).toBe("INVALID_OPERATION");
    expect(refused.message).toMatch(/1 active feature flag/);

    const archived = await gqlOk(
      t,
      `mutation { archiveProject(id: "check-out-2") { id: databaseId archivedAt } }`,
    );
    expect(archived.archiveProject.archivedAt).not.toBeNull();
    const lists = await gqlOk(
      t,
      `{ active: projects { id: databaseId } archived: projects(archived: true) { id: databaseId } }`,
    );
    expect(lists.active.map((p: { id: string }) => p.id)).not.toContain("check-out-2");
    expect(lists.archived).toEqual([{ id: "check-out-2" }]);
    await gqlOk(t, `mutation { archiveProject(id: "check-out-2") { id: databaseId } }`);
    // An archived project takes no new flags.
    expect(
      await gqlError(
        t,
        `mutation { createFeature(project: "check-out-2", input: { name: "late-flag" }) { name } }`,
      ),
    ).toMatchObject({ code: "NOT_FOUND", message: 'Could not find project with id "check-out-2"' });

    const revived = await gqlOk(
      t,
      `mutation { reviveProject(id: "check-out-2") { id: databaseId archivedAt } }`,
    );
    expect(revived.reviveProject).toEqual({ id: "check-out-2", archivedAt: null });
    const events = await eventsOf(t, ["project-archived", "project-revived"]);
    expect(events.map((e) => [e.type, e.project, e.data, e.preData])).toEqual([
      ["project-archived", "check-out-2", null, null],
      ["project-revived", "check-out-2", null, null],
    ]);
    expect(await gqlError(t, `mutation { reviveProject(id: "nope") { id: databaseId } }`)).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("enforces the projects limit (active projects only)", async () => {
    // default, checkout, check-out, check-out-2: the limit of 4 is reached.
    const over = await gqlError(t, CREATE, { input: { id: "fifth", name: "Fifth" } });
    expect(over).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: "Failed to create project. You can't create more than the established limit of 4.",
    });
    await gqlOk(t, `mutation { archiveProject(id: "check-out") { id: databaseId } }`);
    await gqlOk(t, CREATE, { input: { id: "fifth", name: "Fifth" } });
    expect(await gqlError(t, `mutation { reviveProject(id: "check-out") { id: databaseId } }`)).toMatchObject(
      {
        code: "LIMIT_EXCEEDED",
      },
    );
  });

  it("reports counts, flags and favourite state", async () => {
    const data = await gqlOk(
      t,
      `{ project(id: "checkout") { featureCount staleFeatureCount potentiallyStaleFeatureCount memberCount
         favorite defaultStickiness featureLimit features { name } } }`,
    );
    expect(data.project).toEqual({
      featureCount: 1,
      staleFeatureCount: 0,
      potentiallyStaleFeatureCount: 0,
      memberCount: 0,
      favorite: false,
      defaultStickiness: "default",
      featureLimit: null,
      features: [{ name: "pay-button" }],
    });
    // Favourites are per user: the admin user (through a personal access token) favourites it.
    const { token: admin } = await personalToken(t, "admin", t.config.initAdmin.password);
    await favoriteProject(t, "checkout", admin);
    const query = `{ projects { id: databaseId favorite } }`;
    const mine = await gqlOk<{ projects: { id: string; favorite: boolean }[] }>(t, query, {}, admin);
    expect(mine.projects.filter((p) => p.favorite).map((p) => p.id)).toEqual(["checkout"]);
    expect((await gqlOk(t, `{ project(id: "checkout") { favorite } }`)).project.favorite).toBe(false);
    // An admin API token keeps its favourites as the shared admin-token user (-42).
    await favoriteProject(t, "fifth");
    const viaToken = await gqlOk(t, `{ projects { id: databaseId favorite } }`);
    expect(viaToken.projects.filter((p: { favorite: boolean }) => p.favorite)).toEqual([
      { id: "fifth", favorite: true },
    ]);
    await favoriteProject(t, "checkout", admin, false);
    await favoriteProject(t, "fifth", undefined, false);
  });
});

describe("projects over REST", () => {
  it("GET /api/admin/projects answers {version, projects} with counts", async () => {
    const res = await t.rest("GET", "/api/admin/projects");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const checkout = res.body.projects.find((p: { id: string }) => p.id === "checkout");
    expect(checkout).toEqual({
      id: "checkout",
      name: "Checkout v2",
      description: null,
      health: 100,
      featureCount: 1,
      staleFeatureCount: 0,
      potentiallyStaleFeatureCount: 0,
      memberCount: 0,
      createdAt: "2026-03-01T10:00:00.000Z",
      updatedAt: expect.any(String),
      archivedAt: null,
      favorite: false,
      mode: "open",
      defaultStickiness: "default",
      featureLimit: null,
    });
  });

  it("POST creates (201 with the project), 409 on a taken id, 400 naming the field, 400 over the limit", async () => {
    await gqlOk(t, `mutation { archiveProject(id: "fifth") { id: databaseId } }`);
    const created = await t.rest("POST", "/api/admin/projects", {
      id: "mobile",
      name: "Mobile",
      description: "Apps",
      mode: "open",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: "mobile",
      name: "Mobile",
      description: "Apps",
      featureLimit: null,
      mode: "open",
      defaultStickiness: "default",
      environments: ["development", "production"],
    });
    const taken = await t.rest("POST", "/api/admin/projects", { id: "mobile", name: "Mobile" });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe("NameExistsError");
    const badId = await t.rest("POST", "/api/admin/projects", { id: "mo bile", name: "Mobile" });
    expect(badId.status).toBe(400);
    expect(badId.body.details[0].path).toBe("id");
    const noName = await t.rest("POST", "/api/admin/projects", { id: "web" });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toMatch(/name/);
    const over = await t.rest("POST", "/api/admin/projects", { id: "web", name: "Web" });
    expect(over.status).toBe(400);
    expect(over.body.name).toBe("ExceedsLimitError");
  });

  it("GET /api/admin/projects/:p answers the overview; 404 for an unknown project", async () => {
    await createTagType(t, "plain");
    await createFlag(t, "pay-later", {
      project: "checkout",
      type: "experiment",
      tags: [{ type: "plain", value: "beta" }],
    });
    const res = await t.rest("GET", "/api/admin/projects/checkout");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      id: "checkout",
      name: "Checkout v2",
      description: null,
      health: 100,
      technicalDebt: 0,
      featureCount: 2,
      mode: "open",
      favorite: false,
      environments: [{ environment: "development" }, { environment: "production" }],
      featureTypeCounts: [
        { type: "experiment", count: 1 },
        { type: "release", count: 1 },
      ],
    });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(["pay-button", "pay-later"]);
    expect(res.body.features[1]).toMatchObject({
      name: "pay-later",
      type: "experiment",
      project: "checkout",
      stale: false,
      archivedAt: null,
      tags: [{ type: "plain", value: "beta" }],
      environments: [
        { name: "development", enabled: false, type: "development", hasStrategies: false },
        { name: "production", enabled: false, type: "production", hasStrategies: false },
      ],
    });
    const missing = await t.rest("GET", "/api/admin/projects/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe("NotFoundError");
  });

  it("PUT updates; archive refuses with active flags (403), archive and revive paths work", async () => {
    const updated = await t.rest("PUT", "/api/admin/projects/mobile", { name: "Mobile apps", id: "ignored" });
    expect(updated).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/mobile")).body).toMatchObject({
      name: "Mobile apps",
      description: "Apps",
    });
    expect((await t.rest("PUT", "/api/admin/projects/nope", { name: "X" })).status).toBe(404);
    const refused = await t.rest("POST", "/api/admin/projects/archive/checkout");
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("InvalidOperationError");
    const archived = await t.rest("POST", "/api/admin/projects/archive/mobile");
    expect(archived).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/mobile")).body.archivedAt).not.toBeNull();
    const revived = await t.rest("POST", "/api/admin/projects/revive/mobile");
    expect(revived).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/mobile")).body.archivedAt).toBeNull();
    expect((await t.rest("POST", "/api/admin/projects/archive/nope")).status).toBe(404);
    const types = (await eventsOf(t, ["project-updated", "project-archived", "project-revived"]))
      .filter((e) => e.project === "mobile")
      .map((e) => e.type);
    expect(types).toEqual(["project-updated", "project-archived", "project-revived"]);
  });
});
