import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  createFlag,
  createProject,
  eventsAfter,
  gqlOk,
  lastEventId,
  userWithPat,
} from "../helpers/builders.ts";
import { addStrategyError } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProject(t, "team");
});
afterAll(() => t.close());

const SEGMENT =
  "id: databaseId name description project usedInFeatures usedInProjects constraints { contextName operator values value }";
const CREATE = `mutation($i: SegmentInput!) { createSegment(input: $i) { ${SEGMENT} } }`;
const UPDATE = `mutation($id: Int!, $i: SegmentInput!) { updateSegment(id: $id, input: $i) { ${SEGMENT} } }`;
const DELETE = "mutation($id: Int!) { deleteSegment(id: $id) }";

/** Creates a segment; returns it with the SEGMENT fields. */
async function createdSegment(input: Record<string, unknown>) {
  return (await gqlOk<{ createSegment: Record<string, any> }>(t, CREATE, { i: input })).createSegment;
}

describe("segments over GraphQL", () => {
  it("creates a global segment with validated constraints; segment-created", async () => {
    const mark = await lastEventId(t);
    const segment = await createdSegment({
      name: "beta-users",
      description: "Opted in",
      constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
    });
    expect(segment).toMatchObject({
      name: "beta-users",
      project: null,
      usedInFeatures: 0,
      usedInProjects: 0,
    });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.project, e.data?.name, e.data?.id])).toEqual([
      ["segment-created", null, "beta-users", segment.id],
    ]);
    expect(events[0]).toMatchObject({
      label: "Segment created",
      summary: "**admin-token** created a segment",
    });
  });

  it("refuses a taken name (NAME_EXISTS), an unknown project (NOT_FOUND) and bad constraints (VALIDATION)", async () => {
    await createdSegment({ name: "taken-seg" });
    const taken = await t.gql(CREATE, { i: { name: "taken-seg" } });
    expect(taken.errors?.[0]).toMatchObject({
      message: 'There is already a segment named "taken-seg"',
      extensions: { code: "NAME_EXISTS" },
    });
    const noProject = await t.gql(CREATE, { i: { name: "x", project: "nope" } });
    expect(noProject.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const bad = await t.gql(CREATE, {
      i: { name: "y", constraints: [{ contextName: "v", operator: "SEMVER_EQ", value: "x" }] },
    });
    expect(bad.errors?.[0]).toMatchObject({ extensions: { code: "VALIDATION" } });
    expect(bad.errors?.[0]?.message).toMatch(/^constraints\.0\.value: SEMVER_EQ needs a semantic version/);
  });

  it("updates (segment-updated with data and preData); an unchanged update records nothing", async () => {
    const segment = await createdSegment({
      name: "updated-seg",
      description: "Opted in",
      constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
    });
    const mark = await lastEventId(t);
    const input = {
      name: "updated-seg",
      description: "Opted in, v2",
      constraints: [{ contextName: "userId", operator: "IN", values: ["1"] }],
    };
    const res = await t.gql(UPDATE, { id: segment?.id, i: input });
    expect(res.data?.updateSegment).toMatchObject({
      description: "Opted in, v2",
      constraints: [{ values: ["1"] }],
    });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.preData?.description, e.data?.description])).toEqual([
      ["segment-updated", "Opted in", "Opted in, v2"],
    ]);
    const again = await lastEventId(t);
    await t.gql(UPDATE, { id: segment?.id, i: input });
    expect(await eventsAfter(t, again)).toEqual([]);
    const missing = await t.gql(UPDATE, { id: 9999, i: input });
    expect(missing.errors?.[0]).toMatchObject({
      message: "Could not find segment with id 9999",
      extensions: { code: "NOT_FOUND" },
    });
  });

  it("attaches segments to strategies: they must exist and be global or of the strategy's project", async () => {
    const global = await createdSegment({ name: "global-seg" });
    const teamOnly = await createdSegment({ name: "team-seg", project: "team" });
    await createFlag(t, "seg-flag");
    const strategy = await addStrategy(t, "seg-flag", { name: "default", segments: [global.id, global.id] });
    expect(strategy.segments).toEqual([global.id]);
    expect(await addStrategyError(t, "seg-flag", { name: "default", segments: [424242] })).toEqual({
      code: "VALIDATION",
      message: "segments: segment 424242 does not exist",
    });
    expect(await addStrategyError(t, "seg-flag", { name: "default", segments: [teamOnly.id] })).toEqual({
      code: "VALIDATION",
      message: `segments: segment ${teamOnly.id} belongs to project "team", not "default"`,
    });
    const used = await t.gql<{ segment: Record<string, any> }>(
      `query($id: Int!) { segment(id: $id) { ${SEGMENT} } }`,
      {
        id: global.id,
      },
    );
    expect(used.data?.segment).toMatchObject({ usedInFeatures: 1, usedInProjects: 1 });
    const move = await t.gql(UPDATE, { id: global.id, i: { name: "global-seg", project: "team" } });
    expect(move.errors?.[0]?.message).toBe(
      'project: the segment is used by strategies in project "default", so it cannot belong to project "team" only',
    );
  });

  it("refuses to delete a segment in use (CONFLICT), deletes an unused one with segment-deleted", async () => {
    const inUse = await createdSegment({ name: "busy-seg" });
    await createFlag(t, "busy-seg-flag");
    await addStrategy(t, "busy-seg-flag", { name: "default", segments: [inUse.id] });
    const mark = await lastEventId(t);
    const refused = await t.gql(DELETE, { id: inUse?.id });
    expect(refused.errors?.[0]).toMatchObject({
      message:
        'Segment "busy-seg" is in use by 1 strategies (flags: busy-seg-flag); remove it from them first.',
      extensions: { code: "CONFLICT" },
    });
    const unused = await createdSegment({ name: "short-lived", project: "team" });
    const deleted = await t.gql(DELETE, { id: unused.id });
    expect(deleted.data).toEqual({ deleteSegment: unused.id });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.project, e.data, e.preData?.name])).toEqual([
      ["segment-created", "team", expect.objectContaining({ name: "short-lived" }), undefined],
      ["segment-deleted", "team", null, "short-lived"],
    ]);
  });

  it("lists the global segments and those of one project", async () => {
    await createProject(t, "listing");
    await createdSegment({ name: "listed-global" });
    await createdSegment({ name: "listed-mine", project: "listing" });
    await createdSegment({ name: "listed-theirs", project: "team" });
    const res = await t.gql<{ segments: { name: string }[] }>(`{ segments(project: "listing") { name } }`);
    const names = res.data?.segments.map((s) => s.name) ?? [];
    expect(names.filter((name) => name.startsWith("listed-"))).toEqual(["listed-global", "listed-mine"]);
  });
});

describe("segment REST paths", () => {
  it("POST 201, GET list, PUT 204, DELETE 204 / 409 while in use", async () => {
    const created = await t.rest("POST", "/api/admin/segments", {
      name: "rest-seg",
      description: "From a script",
      project: null,
      constraints: [
        { contextName: "appName", operator: "STR_STARTS_WITH", values: ["web-"], caseInsensitive: true },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "rest-seg", project: null, usedInFeatures: 0 });
    const list = await t.rest("GET", "/api/admin/segments");
    expect(list.status).toBe(200);
    expect(list.body.segments.map((s: any) => s.name)).toContain("rest-seg");
    const updated = await t.rest("PUT", `/api/admin/segments/${created.body.id}`, { name: "rest-seg-2" });
    expect(updated.status).toBe(204);
    const taken = await t.rest("POST", "/api/admin/segments", { name: "rest-seg-2" });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe("NameExistsError");
    await createFlag(t, "rest-seg-flag");
    await addStrategy(t, "rest-seg-flag", { name: "default", segments: [created.body.id] });
    const conflict = await t.rest("DELETE", `/api/admin/segments/${created.body.id}`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.name).toBe("ConflictError");
    const notANumber = await t.rest("DELETE", "/api/admin/segments/abc");
    expect(notANumber.status).toBe(400);
    const missing = await t.rest("DELETE", "/api/admin/segments/9999");
    expect(missing.status).toBe(404);
    const viewer = (await userWithPat(t, "segment-viewer", "Viewer")).token;
    const forbidden = await t.rest("POST", "/api/admin/segments", { name: "viewer-seg" }, viewer);
    expect(forbidden).toMatchObject({
      status: 403,
      body: { name: "NoAccessError", permissions: ["CREATE_SEGMENT"] },
    });
    expect((await t.rest("GET", "/api/admin/segments", undefined, viewer)).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/segments", undefined, null)).status).toBe(401);
    const unused = await t.rest("POST", "/api/admin/segments", { name: "rest-unused" });
    expect((await t.rest("DELETE", `/api/admin/segments/${unused.body.id}`)).status).toBe(204);
  });
});
