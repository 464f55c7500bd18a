import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, eventsOf, gqlError, gqlOk } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const TYPE_FIELDS = "name description icon color";
const CREATE_TYPE = `mutation($input: CreateTagTypeInput!) { createTagType(input: $input) { ${TYPE_FIELDS} } }`;
const UPDATE_TYPE = `mutation($name: String!, $input: UpdateTagTypeInput!) {
  updateTagType(name: $name, input: $input) { ${TYPE_FIELDS} } }`;
const CREATE_TAG = `mutation($input: CreateTagInput!) { createTag(input: $input) { type value featureCount } }`;

describe("tag types over GraphQL", () => {
  it("creates a tag type and records tag-type-created", async () => {
    const input = { name: "team", description: "Owning team", icon: "people", color: "#1a2b3c" };
    expect((await gqlOk(t, CREATE_TYPE, { input })).createTagType).toEqual(input);
    const [event] = await eventsOf(t, ["tag-type-created"]);
    expect(event).toMatchObject({ label: "Tag type created", data: input, preData: null });
    expect((await gqlOk(t, `{ tagType(name: "team") { name tagCount } }`)).tagType).toEqual({
      name: "team",
      tagCount: 0,
    });
  });

  it("refuses a taken name, a bad name or colour, naming the field", async () => {
    expect(await gqlError(t, CREATE_TYPE, { input: { name: "team" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
    expect((await gqlError(t, CREATE_TYPE, { input: { name: "t" } })).message).toMatch(/^type: |^name: /);
    expect((await gqlError(t, CREATE_TYPE, { input: { name: "my team" } })).code).toBe("VALIDATION");
    const colour = await gqlError(t, CREATE_TYPE, { input: { name: "area", color: "red" } });
    expect(colour).toMatchObject({ code: "VALIDATION", message: "color: must be a hex colour like #1a2b3c" });
  });

  it("updates with data and preData; unchanged records nothing; unknown is NOT_FOUND", async () => {
    const data = await gqlOk(t, UPDATE_TYPE, { name: "team", input: { icon: null, color: "#fff" } });
    expect(data.updateTagType).toEqual({
      name: "team",
      description: "Owning team",
      icon: null,
      color: "#fff",
    });
    await gqlOk(t, UPDATE_TYPE, { name: "team", input: { description: "Owning team" } });
    const events = await eventsOf(t, ["tag-type-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      data: { name: "team", icon: null, color: "#fff" },
      preData: { name: "team", icon: "people", color: "#1a2b3c" },
    });
    expect(await gqlError(t, UPDATE_TYPE, { name: "nope", input: {} })).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("tags over GraphQL", () => {
  it("creates a tag (value trimmed) and records tag-created; lists by type", async () => {
    const data = await gqlOk(t, CREATE_TAG, { input: { type: "team", value: "  payments " } });
    expect(data.createTag).toEqual({ type: "team", value: "payments", featureCount: 0 });
    await gqlOk(t, CREATE_TYPE, { input: { name: "area" } });
    await gqlOk(t, CREATE_TAG, { input: { type: "area", value: "web" } });
    const [event] = await eventsOf(t, ["tag-created"]);
    expect(event).toMatchObject({
      label: "Tag created",
      data: { type: "team", value: "payments" },
      preData: null,
    });
    expect((await gqlOk(t, `{ tags { type value } }`)).tags).toEqual([
      { type: "area", value: "web" },
      { type: "team", value: "payments" },
    ]);
    expect((await gqlOk(t, `{ tags(type: "team") { value } }`)).tags).toEqual([{ value: "payments" }]);
  });

  it("refuses values outside 2..50, unknown types (NOT_FOUND) and existing tags (NAME_EXISTS)", async () => {
    expect((await gqlError(t, CREATE_TAG, { input: { type: "team", value: "x" } })).message).toMatch(
      /^value: /,
    );
    expect((await gqlError(t, CREATE_TAG, { input: { type: "team", value: "x".repeat(51) } })).code).toBe(
      "VALIDATION",
    );
    expect(await gqlError(t, CREATE_TAG, { input: { type: "nope", value: "payments" } })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await gqlError(t, CREATE_TAG, { input: { type: "team", value: "payments" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
  });

  it("deleting a tag untags the flags that carried it and records tag-deleted", async () => {
    await createFlag(t, "checkout", { tags: [{ type: "team", value: "payments" }] });
    expect(
      (await gqlOk(t, `{ tag(type: "team", value: "payments") { featureCount } }`)).tag.featureCount,
    ).toBe(1);
    const data = await gqlOk(
      t,
      `mutation { deleteTag(type: "team", value: "payments") { type value featureCount } }`,
    );
    expect(data.deleteTag).toEqual({ type: "team", value: "payments", featureCount: 1 });
    expect((await gqlOk(t, `{ feature(name: "checkout") { tags { type value } } }`)).feature.tags).toEqual(
      [],
    );
    const [event] = await eventsOf(t, ["tag-deleted"]);
    expect(event).toMatchObject({ data: null, preData: { type: "team", value: "payments" } });
    expect(
      await gqlError(t, `mutation { deleteTag(type: "team", value: "payments") { type } }`),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("deleting a tag type deletes its tags and untags flags (cascade), one tag-type-deleted event", async () => {
    await gqlOk(t, CREATE_TAG, { input: { type: "team", value: "growth" } });
    await createFlag(t, "signup", {
      tags: [
        { type: "team", value: "growth" },
        { type: "area", value: "web" },
      ],
    });
    const data = await gqlOk(t, `mutation { deleteTagType(name: "team") { name tagCount } }`);
    expect(data.deleteTagType).toEqual({ name: "team", tagCount: 1 });
    expect((await gqlOk(t, `{ feature(name: "signup") { tags { type value } } }`)).feature.tags).toEqual([
      { type: "area", value: "web" },
    ]);
    expect((await gqlOk(t, `{ tags { type value } }`)).tags).toEqual([{ type: "area", value: "web" }]);
    const events = await eventsOf(t, ["tag-type-deleted", "tag-deleted", "feature-untagged"]);
    expect(events.map((e) => e.type)).toEqual(["tag-deleted", "tag-type-deleted"]);
    expect(events[1]?.preData).toEqual({
      name: "team",
      description: "Owning team",
      icon: null,
      color: "#fff",
    });
    expect(await gqlError(t, `mutation { deleteTagType(name: "team") { name } }`)).toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("tag types and tags over REST", () => {
  it("GET /api/admin/tag-types answers {version, tagTypes}; POST 201/409/400; GET one; PUT; DELETE", async () => {
    const created = await t.rest("POST", "/api/admin/tag-types", { name: "plain", description: "Plain" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "plain", description: "Plain", icon: null, color: null });
    expect((await t.rest("POST", "/api/admin/tag-types", { name: "plain" })).status).toBe(409);
    const bad = await t.rest("POST", "/api/admin/tag-types", { description: "no name" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/name/);
    const list = await t.rest("GET", "/api/admin/tag-types");
    expect(list.body).toEqual({
      version: 1,
      tagTypes: [
        { name: "area", description: null, icon: null, color: null },
        { name: "plain", description: "Plain", icon: null, color: null },
        { name: "simple", description: "Used to simplify filtering of features", icon: "#", color: null },
      ],
    });
    expect((await t.rest("GET", "/api/admin/tag-types/plain")).body).toMatchObject({
      version: 1,
      tagType: { name: "plain" },
    });
    expect((await t.rest("GET", "/api/admin/tag-types/nope")).status).toBe(404);
    const updated = await t.rest("PUT", "/api/admin/tag-types/plain", { icon: "label", name: "ignored" });
    expect(updated).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/tag-types/plain")).body.tagType).toMatchObject({
      icon: "label",
    });
    expect((await t.rest("PUT", "/api/admin/tag-types/nope", { icon: "x" })).status).toBe(404);
  });

  it("tags: POST 201 {version, tag}, 404 unknown type, 409 existing, 400 short value; GET lists; DELETE", async () => {
    const created = await t.rest("POST", "/api/admin/tags", { type: "plain", value: "beta" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ version: 1, tag: { type: "plain", value: "beta" } });
    expect((await t.rest("POST", "/api/admin/tags", { type: "nope", value: "beta" })).status).toBe(404);
    expect((await t.rest("POST", "/api/admin/tags", { type: "plain", value: "beta" })).status).toBe(409);
    const short = await t.rest("POST", "/api/admin/tags", { type: "plain", value: "b" });
    expect(short.status).toBe(400);
    expect(short.body.details[0].path).toBe("value");
    expect((await t.rest("GET", "/api/admin/tags")).body).toEqual({
      version: 1,
      tags: [
        { type: "area", value: "web" },
        { type: "plain", value: "beta" },
      ],
    });
    expect((await t.rest("GET", "/api/admin/tags/plain")).body).toEqual({
      version: 1,
      tags: [{ type: "plain", value: "beta" }],
    });
    expect((await t.rest("GET", "/api/admin/tags/plain/beta")).body).toEqual({
      version: 1,
      tag: { type: "plain", value: "beta" },
    });
    expect((await t.rest("GET", "/api/admin/tags/plain/nope")).status).toBe(404);
    expect(await t.rest("DELETE", "/api/admin/tags/plain/beta")).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect((await t.rest("DELETE", "/api/admin/tags/plain/beta")).status).toBe(404);
    expect((await t.rest("DELETE", "/api/admin/tag-types/plain")).status).toBe(200);
    expect((await t.rest("DELETE", "/api/admin/tag-types/plain")).status).toBe(404);
  });
});
