import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  addProjectMember,
  addStrategy,
  configureChangeRequests,
  createFlag,
  createProject,
  createRole,
  createSegment,
  eventsOf,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import { nextMillisecond } from "../time-travel/time-travel-helpers.ts";
import { approved, setState } from "./fixtures.ts";

// Issue 36 point 3: segment and dependency changes alter what a protected environment serves,
// so they go through a change request there (D-26).

let t: TestApp;
let editor: TestUser;
let reviewer: TestUser;

const constraint = (values: string[]) => ({ contextName: "userId", operator: "IN", values });
const UPDATE_SEGMENT = `mutation($id: Int!, $input: SegmentInput!) { updateSegment(id: $id, input: $input) { id } }`;
const ADD_DEPENDENCY = `mutation($f: String!, $i: AddDependencyInput!) {
  addFeatureDependency(project: "default", feature: $f, input: $i) { name } }`;
const REMOVE_DEPENDENCY = `mutation($f: String!, $parent: String) {
  removeFeatureDependency(project: "default", feature: $f, parent: $parent) { name } }`;

/** A segment used by a strategy of a new flag in `environment` of project default; its id. */
async function segmentUsedIn(name: string, environment: string): Promise<number> {
  const id = await createSegment(t, name, { constraints: [constraint(["alice"])] });
  await createFlag(t, `${name}-flag`);
  await addStrategy(t, `${name}-flag`, { name: "default", segments: [id] }, environment);
  return id;
}

async function segmentValues(id: number): Promise<string[]> {
  const segment = await t.database.prisma.segment.findUniqueOrThrow({ where: { id } });
  return (segment.constraints as { values: string[] }[]).flatMap((c) => c.values);
}

const parentsOf = async (child: string) =>
  (await t.database.prisma.featureDependency.findMany({ where: { childName: child } })).map(
    (d) => d.parentName,
  );

/** A change request by the editor in production, approved by the reviewer, then applied. */
async function appliedChange(change: unknown) {
  const id = await approved(t, "production", change, editor, [reviewer]);
  const applied = await setState(t, id, { state: "Applied" }, reviewer.token);
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "eddie", "Editor");
  reviewer = await userWithPat(t, "rita", "Viewer");
  const reviewing = await createRole(t, "Production reviewer", [
    { name: "APPROVE_CHANGE_REQUEST", environment: "production" },
    { name: "APPLY_CHANGE_REQUEST", environment: "production" },
  ]);
  await addProjectMember(t, "default", reviewer.id, reviewing);
  await createProject(t, "open");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

describe("segments used by a strategy in an environment under review", () => {
  it("an Editor's direct change is refused over REST and GraphQL, and nothing changes", async () => {
    const id = await segmentUsedIn("beta-users", "production");
    const before = (await eventsOf(t, ["segment-updated"])).length;
    const body = { name: "beta-users", constraints: [constraint(["mallory"])] };
    const rest = await t.rest("PUT", `/api/admin/segments/${id}`, body, editor.token);
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ name: "NoAccessError", permissions: ["SKIP_CHANGE_REQUEST"] });
    expect(rest.body.message).toMatch(/"production" environment of project "default".*change request/);
    const gql = await t.gql(UPDATE_SEGMENT, { id, input: body }, editor.token);
    expect(gql.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["SKIP_CHANGE_REQUEST"],
    });
    expect(await segmentValues(id)).toEqual(["alice"]);
    expect((await eventsOf(t, ["segment-updated"])).length).toBe(before);
  });

  it("a project segment is guarded the same way", async () => {
    const id = await createSegment(t, "vip", { project: "default", constraints: [constraint(["bob"])] });
    await createFlag(t, "vip-flag");
    await addStrategy(t, "vip-flag", { name: "default", segments: [id] }, "production");
    const res = await t.rest(
      "PUT",
      `/api/admin/segments/${id}`,
      { name: "vip", project: "default", constraints: [] },
      editor.token,
    );
    expect(res.status).toBe(403);
    expect(await segmentValues(id)).toEqual(["bob"]);
  });

  it("through a change request (updateSegment) the same change takes effect once reviewed", async () => {
    const id = await segmentUsedIn("testers", "production");
    await appliedChange({
      action: "updateSegment",
      payload: { id, name: "testers", constraints: [constraint(["carol"])] },
    });
    expect(await segmentValues(id)).toEqual(["carol"]);
  });

  it("a segment used only where no review is required stays directly editable", async () => {
    const id = await segmentUsedIn("dev-crowd", "development");
    const body = { name: "dev-crowd", constraints: [constraint(["dave"])] };
    expect((await t.rest("PUT", `/api/admin/segments/${id}`, body, editor.token)).status).toBe(204);
    expect(await segmentValues(id)).toEqual(["dave"]);
  });

  it("whoever may skip change requests (an admin) still changes it directly", async () => {
    const id = await segmentUsedIn("staff", "production");
    const body = { name: "staff", constraints: [constraint(["erin"])] };
    expect((await t.rest("PUT", `/api/admin/segments/${id}`, body)).status).toBe(204);
    expect(await segmentValues(id)).toEqual(["erin"]);
  });
});

describe("dependencies in a project with an environment under review", () => {
  it("an Editor cannot add a parent directly, over REST or GraphQL", async () => {
    await createFlag(t, "child-a");
    await createFlag(t, "parent-a");
    const path = "/api/admin/projects/default/features/child-a/dependencies";
    const rest = await t.rest("POST", path, { feature: "parent-a" }, editor.token);
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ name: "NoAccessError", permissions: ["SKIP_CHANGE_REQUEST"] });
    expect(rest.body.message).toMatch(/addDependency/);
    const gql = await t.gql(ADD_DEPENDENCY, { f: "child-a", i: { feature: "parent-a" } }, editor.token);
    expect(gql.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    expect(await parentsOf("child-a")).toEqual([]);
  });

  it("an Editor cannot remove one parent or all of them directly", async () => {
    await createFlag(t, "child-b");
    await createFlag(t, "parent-b");
    await addDependency(t, "child-b", "parent-b");
    const path = "/api/admin/projects/default/features/child-b/dependencies";
    expect((await t.rest("DELETE", `${path}/parent-b`, undefined, editor.token)).status).toBe(403);
    expect((await t.rest("DELETE", path, undefined, editor.token)).status).toBe(403);
    for (const parent of ["parent-b", null]) {
      const gql = await t.gql(REMOVE_DEPENDENCY, { f: "child-b", parent }, editor.token);
      expect(gql.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    }
    expect(await parentsOf("child-b")).toEqual(["parent-b"]);
  });

  it("through change requests (addDependency, deleteDependency) they take effect once reviewed", async () => {
    await createFlag(t, "child-c");
    await createFlag(t, "parent-c");
    await appliedChange({ action: "addDependency", feature: "child-c", payload: { feature: "parent-c" } });
    expect(await parentsOf("child-c")).toEqual(["parent-c"]);
    await appliedChange({ action: "deleteDependency", feature: "child-c" });
    expect(await parentsOf("child-c")).toEqual([]);
  });

  it("a time-travel restore that would change parents is refused the same way", async () => {
    await createFlag(t, "child-d");
    await createFlag(t, "parent-d");
    const then = await nextMillisecond(new Date());
    await addDependency(t, "child-d", "parent-d");
    const res = await t.gql(
      `mutation($at: DateTime!) { restoreFeature(project: "default", name: "child-d", at: $at) { changeRequests { id } } }`,
      { at: then.toISOString() },
      editor.token,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    expect(res.errors?.[0]?.message).toMatch(/deleteDependency/);
    expect(await parentsOf("child-d")).toEqual(["parent-d"]);
  });

  it("an import changes parents only with the same permission; an unchanged one passes", async () => {
    await createFlag(t, "child-f");
    await createFlag(t, "parent-f");
    await addDependency(t, "child-f", "parent-f");
    const exported = await t.rest("POST", "/api/admin/features-batch/export", {
      environment: "development",
      features: ["child-f", "parent-f"],
    });
    expect(exported.status).toBe(200);
    const importAs = (data: unknown) =>
      t.rest(
        "POST",
        "/api/admin/features-batch/import",
        { project: "default", environment: "development", data },
        editor.token,
      );
    const same = await importAs(exported.body);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const unlinked = await importAs({ ...exported.body, dependencies: [] });
    expect(unlinked.status).toBe(403);
    expect(unlinked.body.message).toMatch(/deleteDependency/);
    expect(await parentsOf("child-f")).toEqual(["parent-f"]);
  });

  it("in a project without change requests an Editor still changes them directly", async () => {
    await createFlag(t, "child-e", { project: "open" });
    await createFlag(t, "parent-e", { project: "open" });
    const path = "/api/admin/projects/open/features/child-e/dependencies";
    expect((await t.rest("POST", path, { feature: "parent-e" }, editor.token)).status).toBe(200);
    expect(await parentsOf("child-e")).toEqual(["parent-e"]);
    expect((await t.rest("DELETE", path, undefined, editor.token)).status).toBe(200);
    expect(await parentsOf("child-e")).toEqual([]);
  });
});
