import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Project-scoped context fields (issue 14): Unleash's `/api/admin/projects/:projectId/context`
 * routes on the context-field module. Names are unique across root and project fields; a
 * project's routes reach only its own fields; a project field's legal values bind only the
 * constraints of that project's strategies. Answers are checked against each route's schema.
 */
let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "context-viewer", "Viewer")).token;
  expect((await t.rest("POST", "/api/admin/projects", { id: "other", name: "Other" })).status).toBe(201);
  expect((await t.rest("POST", "/api/admin/context", { name: "tier" })).status).toBe(201);
});
afterAll(() => t.close());

const DEFAULT = "/api/admin/projects/default/context";
const OTHER = "/api/admin/projects/other/context";
/** The events of this type about field `name` (in their data or preData), oldest first. */
const events = async (type: string, name: string) =>
  (await t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } })).filter((e) =>
    [e.data, e.preData].some((d) => (d as { name?: string } | null)?.name === name),
  );
/** A field of a test's own in a project, with legal values cart and pay. */
async function projectField(name: string, project = "default") {
  const created = await t.rest("POST", `/api/admin/projects/${project}/context`, {
    name,
    legalValues: [{ value: "cart" }, { value: "pay" }],
  });
  expect(created.status).toBe(201);
}
async function createProject(id: string) {
  expect((await t.rest("POST", "/api/admin/projects", { id, name: id })).status).toBe(201);
}
const names = (body: { name: string }[]) => body.map((f) => f.name);

describe("project context fields over REST", () => {
  it("creates a field in the project (201, `project` set) and records context-field-created for it", async () => {
    const created = await t.rest("POST", DEFAULT, {
      name: "checkout-step",
      description: "Where the user is in checkout",
      legalValues: [{ value: "cart" }, { value: "pay" }],
      project: "ignored-on-project-routes",
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: "checkout-step", project: "default", legalValues: [{ value: "cart" }, { value: "pay" }] },
    });
    const [event] = await events("context-field-created", "checkout-step");
    expect(event).toMatchObject({ project: "default", data: { name: "checkout-step", project: "default" } });
    expect((await t.rest("POST", "/api/admin/projects/nope/context", { name: "x-field" })).status).toBe(404);
    expect((await t.rest("POST", DEFAULT, { name: "viewer-field" }, viewer)).status).toBe(403);
  });

  it("lists a project's fields (include=root adds the root ones); the root list shows them only with include=project", async () => {
    await createProject("listing");
    await createProject("listing-empty");
    await projectField("listed-step", "listing");
    const LISTING = "/api/admin/projects/listing/context";
    expect(names((await t.rest("GET", LISTING)).body)).toEqual(["listed-step"]);
    expect(names((await t.rest("GET", `${LISTING}?include=root`)).body).sort()).toEqual([
      "listed-step",
      "tier",
    ]);
    expect((await t.rest("GET", "/api/admin/projects/listing-empty/context")).body).toEqual([]);
    const root = await t.rest("GET", "/api/admin/context");
    expect(names(root.body)).toEqual(["tier"]);
    expect(root.body[0]).not.toHaveProperty("project");
    const all = await t.rest("GET", "/api/admin/context?include=project");
    expect(all.body.find((f: { name: string }) => f.name === "listed-step")).toMatchObject({
      project: "listing",
    });
  });

  it("a project's routes reach only its own fields (404 for another project's or a root field)", async () => {
    await projectField("reach-step");
    expect((await t.rest("GET", `${DEFAULT}/reach-step`)).body).toMatchObject({ project: "default" });
    expect((await t.rest("GET", `${OTHER}/reach-step`)).status).toBe(404);
    expect((await t.rest("GET", `${DEFAULT}/tier`)).status).toBe(404);
    expect((await t.rest("PUT", `${OTHER}/reach-step`, { description: "x" })).status).toBe(404);
    expect((await t.rest("DELETE", `${DEFAULT}/tier`)).status).toBe(404);
    expect((await t.rest("GET", "/api/admin/context/reach-step")).body).toMatchObject({
      project: "default",
    });
  });

  it("names are unique across root and project fields (409), checked by validate too", async () => {
    await projectField("unique-step");
    expect((await t.rest("POST", OTHER, { name: "unique-step" })).status).toBe(409);
    expect((await t.rest("POST", OTHER, { name: "tier" })).status).toBe(409);
    expect((await t.rest("POST", "/api/admin/context", { name: "unique-step" })).status).toBe(409);
    expect(await t.rest("POST", `${OTHER}/validate`, { name: "free-name" })).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect((await t.rest("POST", `${OTHER}/validate`, { name: "unique-step" })).status).toBe(409);
    expect((await t.rest("POST", `${OTHER}/validate`, { name: "a b" })).status).toBe(400);
    expect((await t.rest("POST", "/api/admin/projects/nope/context/validate", { name: "ok" })).status).toBe(
      404,
    );
  });

  it("updates and edits legal values in the project, with context-field-updated events of the project", async () => {
    await projectField("updated-step");
    expect(await t.rest("PUT", `${DEFAULT}/updated-step`, { stickiness: true })).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect(
      (await t.rest("POST", `${DEFAULT}/updated-step/legal-values`, { value: "done", description: "Paid" }))
        .status,
    ).toBe(200);
    expect((await t.rest("DELETE", `${DEFAULT}/updated-step/legal-values/cart`)).status).toBe(200);
    expect((await t.rest("POST", `${OTHER}/updated-step/legal-values`, { value: "x" })).status).toBe(404);
    const field = (await t.rest("GET", `${DEFAULT}/updated-step`)).body;
    expect(field).toMatchObject({
      stickiness: true,
      legalValues: [{ value: "pay" }, { value: "done", description: "Paid" }],
    });
    const updated = await events("context-field-updated", "updated-step");
    expect(updated).toHaveLength(3);
    expect(updated.every((e) => e.project === "default")).toBe(true);
  });

  it("its legal values bind constraints of the project's strategies only", async () => {
    await projectField("bound-step");
    for (const [project, flag] of [
      ["default", "ctx-default-flag"],
      ["other", "ctx-other-flag"],
    ] as const) {
      expect((await t.rest("POST", `/api/admin/projects/${project}/features`, { name: flag })).status).toBe(
        201,
      );
    }
    const strategy = (value: string) => ({
      name: "default",
      constraints: [{ contextName: "bound-step", operator: "IN", values: [value] }],
    });
    const path = (project: string, flag: string) =>
      `/api/admin/projects/${project}/features/${flag}/environments/development/strategies`;
    expect((await t.rest("POST", path("default", "ctx-default-flag"), strategy("nowhere"))).status).toBe(400);
    expect((await t.rest("POST", path("default", "ctx-default-flag"), strategy("pay"))).status).toBe(200);
    expect((await t.rest("POST", path("other", "ctx-other-flag"), strategy("nowhere"))).status).toBe(200);
  });

  it("GraphQL: contextFields(project:) and ContextField.project", async () => {
    await projectField("gql-step");
    const res = await t.gql<{ contextFields: { name: string; project: string | null }[] }>(
      `query($p: String) { contextFields(project: $p, includeRoot: true) { name project } }`,
      { p: "default" },
    );
    expect(res.data?.contextFields).toEqual(
      expect.arrayContaining([
        { name: "gql-step", project: "default" },
        { name: "tier", project: null },
      ]),
    );
    const check = `query($c: ConstraintInput!, $p: String) { validateConstraint(constraint: $c, project: $p) }`;
    const constraint = { contextName: "gql-step", operator: "IN", values: ["pay"] };
    expect((await t.gql(check, { c: constraint, p: "default" })).data).toEqual({ validateConstraint: true });
    expect((await t.gql(check, { c: constraint, p: "other" })).errors?.[0]?.extensions?.code).toBe(
      "VALIDATION",
    );
  });

  it("deletes a project's field (200, no body) with context-field-deleted of the project", async () => {
    await createProject("deleting");
    await projectField("deleted-step", "deleting");
    const DELETING = "/api/admin/projects/deleting/context";
    expect((await t.rest("DELETE", `${OTHER}/deleted-step`)).status).toBe(404);
    expect(await t.rest("DELETE", `${DELETING}/deleted-step`)).toMatchObject({
      status: 200,
      body: undefined,
    });
    const [deleted] = await events("context-field-deleted", "deleted-step");
    expect(deleted).toMatchObject({
      project: "deleting",
      preData: { name: "deleted-step", project: "deleting" },
    });
    expect((await t.rest("GET", DELETING)).body).toEqual([]);
  });
});
