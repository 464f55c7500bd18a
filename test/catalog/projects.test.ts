import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  createFlag,
  createProject,
  createTagType,
  eventsOf,
  favoriteProject,
  gqlError,
  gqlOk,
  personalToken,
} from "../helpers/builders.ts";

/** Active projects allowed; the tests that reach it fill the room left, then archive what they made. */
const PROJECTS_LIMIT = 20;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ UNLEASH_PROJECTS_LIMIT: String(PROJECTS_LIMIT) });
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateProjectInput!) { createProject(input: $input) {
  id: databaseId name description featureCount mode archivedAt environments { name } } }`;
const ARCHIVE = `mutation($id: String!) { archiveProject(id: $id) { id: databaseId } }`;

/** Creates projects `${prefix}-N` until the active ones reach the limit; returns their ids. */
async function fillToLimit(prefix: string): Promise<string[]> {
  const active = (await gqlOk(t, `{ projects { id: databaseId } }`)).projects.length;
  const ids = Array.from({ length: PROJECTS_LIMIT - active }, (_, i) => `${prefix}-${i}`);
  for (const id of ids) await createProject(t, id);
  return ids;
}

async function archiveProjects(ids: string[]) {
  for (const id of ids) await gqlOk(t, ARCHIVE, { id });
}

/** The events of these types recorded in `project`, oldest first. */
const eventsIn = async (project: string, types: string[]) =>
  (await eventsOf(t, types)).filter((e) => e.project === project);

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
    const [event] = await eventsIn("checkout", ["project-created"]);
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
    await createProject(t, "taken");
    expect(await gqlError(t, CREATE, { input: { id: "taken", name: "Again" } })).toMatchObject({
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
    await createProject(t, "updated", { name: "Checkout", description: "Pay" });
    const data = await gqlOk(t, UPDATE, {
      id: "updated",
      input: { name: "Checkout v2", description: null },
    });
    expect(data.updateProject).toEqual({ id: "updated", name: "Checkout v2", description: null });
    await gqlOk(t, UPDATE, { id: "updated", input: { name: "Checkout v2" } });
    const events = await eventsIn("updated", ["project-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      project: "updated",
      data: { id: "updated", name: "Checkout v2", description: null },
      preData: { id: "updated", name: "Checkout", description: "Pay" },
    });
    expect(await gqlError(t, UPDATE, { id: "nope", input: { name: "X" } })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await gqlError(t, UPDATE, { id: "updated", input: { name: "" } })).message).toMatch(/^name: /);
  });

  it("refuses to archive a project with active flags, archives an empty one and revives it", async () => {
    await createProject(t, "archiving-busy");
    await createProject(t, "archiving-empty");
    await createFlag(t, "archiving-flag", { project: "archiving-busy" });
    const refused = await gqlError(t, ARCHIVE, { id: "archiving-busy" });
    expect(refused.code).toBe("INVALID_OPERATION");
    expect(refused.message).toMatch(/1 active feature flag/);

    const archived = await gqlOk(
      t,
      `mutation { archiveProject(id: "archiving-empty") { id: databaseId archivedAt } }`,
    );
    expect(archived.archiveProject.archivedAt).not.toBeNull();
    const lists = await gqlOk(
      t,
      `{ active: projects { id: databaseId } archived: projects(archived: true) { id: databaseId } }`,
    );
    expect(lists.active.map((p: { id: string }) => p.id)).not.toContain("archiving-empty");
    expect(lists.archived.filter((p: { id: string }) => p.id.startsWith("archiving-"))).toEqual([
      { id: "archiving-empty" },
    ]);
    await gqlOk(t, `mutation { archiveProject(id: "archiving-empty") { id: databaseId } }`);
    // An archived project takes no new flags.
    expect(
      await gqlError(
        t,
        `mutation { createFeature(project: "archiving-empty", input: { name: "late-flag" }) { name } }`,
      ),
    ).toMatchObject({ code: "NOT_FOUND", message: 'Could not find project with id "archiving-empty"' });

    const revived = await gqlOk(
      t,
      `mutation { reviveProject(id: "archiving-empty") { id: databaseId archivedAt } }`,
    );
    expect(revived.reviveProject).toEqual({ id: "archiving-empty", archivedAt: null });
    const events = await eventsIn("archiving-empty", ["project-archived", "project-revived"]);
    expect(events.map((e) => [e.type, e.project, e.data, e.preData])).toEqual([
      ["project-archived", "archiving-empty", null, null],
      ["project-revived", "archiving-empty", null, null],
    ]);
    expect(await gqlError(t, `mutation { reviveProject(id: "nope") { id: databaseId } }`)).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("enforces the projects limit (active projects only)", async () => {
    const filler = await fillToLimit("filler");
    const over = await gqlError(t, CREATE, { input: { id: "fifth", name: "Fifth" } });
    expect(over).toMatchObject({
      code: "LIMIT_EXCEEDED",
      message: `Failed to create project. You can't create more than the established limit of ${PROJECTS_LIMIT}.`,
    });
    const [freed = "", ...rest] = filler;
    await gqlOk(t, ARCHIVE, { id: freed });
    await gqlOk(t, CREATE, { input: { id: "fifth", name: "Fifth" } });
    expect(
      await gqlError(t, `mutation($id: String!) { reviveProject(id: $id) { id: databaseId } }`, {
        id: freed,
      }),
    ).toMatchObject({
      code: "LIMIT_EXCEEDED",
    });
    await archiveProjects([...rest, "fifth"]);
  });

  it("reports counts, flags and favourite state", async () => {
    await createProject(t, "counted");
    await createProject(t, "counted-too");
    await createFlag(t, "counted-flag", { project: "counted" });
    const data = await gqlOk(
      t,
      `{ project(id: "counted") { featureCount staleFeatureCount potentiallyStaleFeatureCount memberCount
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
      features: [{ name: "counted-flag" }],
    });
    // Favourites are per user: the admin user (through a personal access token) favourites it.
    const { token: admin } = await personalToken(t, "admin", t.config.initAdmin.password);
    await favoriteProject(t, "counted", admin);
    const query = `{ projects { id: databaseId favorite } }`;
    const mine = await gqlOk<{ projects: { id: string; favorite: boolean }[] }>(t, query, {}, admin);
    expect(mine.projects.filter((p) => p.favorite).map((p) => p.id)).toEqual(["counted"]);
    expect((await gqlOk(t, `{ project(id: "counted") { favorite } }`)).project.favorite).toBe(false);
    // An admin API token keeps its favourites as the shared admin-token user (-42).
    await favoriteProject(t, "counted-too");
    const viaToken = await gqlOk(t, `{ projects { id: databaseId favorite } }`);
    expect(viaToken.projects.filter((p: { favorite: boolean }) => p.favorite)).toEqual([
      { id: "counted-too", favorite: true },
    ]);
    await favoriteProject(t, "counted", admin, false);
    await favoriteProject(t, "counted-too", undefined, false);
  });
});

describe("projects over REST", () => {
  it("GET /api/admin/projects answers {version, projects} with counts", async () => {
    t.setNow(new Date("2026-03-01T10:00:00.000Z"));
    try {
      await createProject(t, "listed", { name: "Checkout v2" });
    } finally {
      t.setNow(null);
    }
    await createFlag(t, "listed-flag", { project: "listed" });
    const res = await t.rest("GET", "/api/admin/projects");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const listed = res.body.projects.find((p: { id: string }) => p.id === "listed");
    expect(listed).toEqual({
      id: "listed",
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
    const filler = await fillToLimit("rest-filler");
    const noName = await t.rest("POST", "/api/admin/projects", { id: "web" });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toMatch(/name/);
    const over = await t.rest("POST", "/api/admin/projects", { id: "web", name: "Web" });
    expect(over.status).toBe(400);
    expect(over.body.name).toBe("ExceedsLimitError");
    await archiveProjects(filler);
  });

  it("GET /api/admin/projects/:p answers the overview; 404 for an unknown project", async () => {
    await createTagType(t, "plain");
    await createProject(t, "overview", { name: "Checkout v2" });
    await createFlag(t, "pay-button", { project: "overview" });
    await createFlag(t, "pay-later", {
      project: "overview",
      type: "experiment",
      tags: [{ type: "plain", value: "beta" }],
    });
    const res = await t.rest("GET", "/api/admin/projects/overview");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      id: "overview",
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
      project: "overview",
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
    await createProject(t, "put-mobile", { name: "Mobile", description: "Apps" });
    await createProject(t, "put-busy");
    await createFlag(t, "put-busy-flag", { project: "put-busy" });
    const updated = await t.rest("PUT", "/api/admin/projects/put-mobile", {
      name: "Mobile apps",
      id: "ignored",
    });
    expect(updated).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/put-mobile")).body).toMatchObject({
      name: "Mobile apps",
      description: "Apps",
    });
    expect((await t.rest("PUT", "/api/admin/projects/nope", { name: "X" })).status).toBe(404);
    const refused = await t.rest("POST", "/api/admin/projects/archive/put-busy");
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("InvalidOperationError");
    const archived = await t.rest("POST", "/api/admin/projects/archive/put-mobile");
    expect(archived).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/put-mobile")).body.archivedAt).not.toBeNull();
    const revived = await t.rest("POST", "/api/admin/projects/revive/put-mobile");
    expect(revived).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/projects/put-mobile")).body.archivedAt).toBeNull();
    expect((await t.rest("POST", "/api/admin/projects/archive/nope")).status).toBe(404);
    const types = (await eventsOf(t, ["project-updated", "project-archived", "project-revived"]))
      .filter((e) => e.project === "put-mobile")
      .map((e) => e.type);
    expect(types).toEqual(["project-updated", "project-archived", "project-revived"]);
  });
});
