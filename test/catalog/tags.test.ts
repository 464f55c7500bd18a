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

/** A tag type of a test's own. */
async function tagType(name: string, input: Record<string, unknown> = {}) {
  await gqlOk(t, CREATE_TYPE, { input: { name, ...input } });
}

/** The events of these types about tag type `type` (its name, or the type of its tags), oldest first. */
const eventsAbout = async (type: string, types: string[]) =>
  (await eventsOf(t, types)).filter((e) => {
    const subject = (e.data ?? e.preData) as { name?: string; type?: string } | null;
    return subject?.name === type || subject?.type === type;
  });

/** Keeps the entries of the given types (a test's own) from a list of tags or tag types. */
const ofTypes = <T extends { type?: string; name?: string }>(list: T[], types: string[]) =>
  list.filter((entry) => types.includes((entry.type ?? entry.name) as string));

describe("tag types over GraphQL", () => {
  it("creates a tag type and records tag-type-created", async () => {
    const input = { name: "created-team", description: "Owning team", icon: "people", color: "#1a2b3c" };
    expect((await gqlOk(t, CREATE_TYPE, { input })).createTagType).toEqual(input);
    const [event] = await eventsAbout("created-team", ["tag-type-created"]);
    expect(event).toMatchObject({ label: "Tag type created", data: input, preData: null });
    expect((await gqlOk(t, `{ tagType(name: "created-team") { name tagCount } }`)).tagType).toEqual({
      name: "created-team",
      tagCount: 0,
    });
  });

  it("refuses a taken name, a bad name or colour, naming the field", async () => {
    await tagType("taken-type");
    expect(await gqlError(t, CREATE_TYPE, { input: { name: "taken-type" } })).toMatchObject({
      code: "NAME_EXISTS",
    });
    expect((await gqlError(t, CREATE_TYPE, { input: { name: "t" } })).message).toMatch(/^type: |^name: /);
    expect((await gqlError(t, CREATE_TYPE, { input: { name: "my team" } })).code).toBe("VALIDATION");
    const colour = await gqlError(t, CREATE_TYPE, { input: { name: "coloured", color: "red" } });
    expect(colour).toMatchObject({ code: "VALIDATION", message: "color: must be a hex colour like #1a2b3c" });
  });

  it("updates with data and preData; unchanged records nothing; unknown is NOT_FOUND", async () => {
    await tagType("updated-team", { description: "Owning team", icon: "people", color: "#1a2b3c" });
    const data = await gqlOk(t, UPDATE_TYPE, { name: "updated-team", input: { icon: null, color: "#fff" } });
    expect(data.updateTagType).toEqual({
      name: "updated-team",
      description: "Owning team",
      icon: null,
      color: "#fff",
    });
    await gqlOk(t, UPDATE_TYPE, { name: "updated-team", input: { description: "Owning team" } });
    const events = await eventsAbout("updated-team", ["tag-type-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      data: { name: "updated-team", icon: null, color: "#fff" },
      preData: { name: "updated-team", icon: "people", color: "#1a2b3c" },
    });
    expect(await gqlError(t, UPDATE_TYPE, { name: "nope", input: {} })).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("tags over GraphQL", () => {
  it("creates a tag (value trimmed) and records tag-created; lists by type", async () => {
    await tagType("listed-team");
    const data = await gqlOk(t, CREATE_TAG, { input: { type: "listed-team", value: "  payments " } });
    expect(data.createTag).toEqual({ type: "listed-team", value: "payments", featureCount: 0 });
    await tagType("listed-area");
    await gqlOk(t, CREATE_TAG, { input: { type: "listed-area", value: "web" } });
    const [event] = await eventsAbout("listed-team", ["tag-created"]);
    expect(event).toMatchObject({
      label: "Tag created",
      data: { type: "listed-team", value: "payments" },
      preData: null,
    });
    const tags = (await gqlOk(t, `{ tags { type value } }`)).tags;
    expect(ofTypes(tags, ["listed-area", "listed-team"])).toEqual([
      { type: "listed-area", value: "web" },
      { type: "listed-team", value: "payments" },
    ]);
    expect((await gqlOk(t, `{ tags(type: "listed-team") { value } }`)).tags).toEqual([{ value: "payments" }]);
  });

  it("refuses values outside 2..50, unknown types (NOT_FOUND) and existing tags (NAME_EXISTS)", async () => {
    await tagType("refusing-team");
    await gqlOk(t, CREATE_TAG, { input: { type: "refusing-team", value: "payments" } });
    expect((await gqlError(t, CREATE_TAG, { input: { type: "refusing-team", value: "x" } })).message).toMatch(
      /^value: /,
    );
    expect(
      (await gqlError(t, CREATE_TAG, { input: { type: "refusing-team", value: "x".repeat(51) } })).code,
    ).toBe("VALIDATION");
    expect(await gqlError(t, CREATE_TAG, { input: { type: "nope", value: "payments" } })).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(
      await gqlError(t, CREATE_TAG, { input: { type: "refusing-team", value: "payments" } }),
    ).toMatchObject({
      code: "NAME_EXISTS",
    });
  });

  it("deleting a tag untags the flags that carried it and records tag-deleted", async () => {
    await tagType("deleting-team");
    await createFlag(t, "checkout", { tags: [{ type: "deleting-team", value: "payments" }] });
    expect(
      (await gqlOk(t, `{ tag(type: "deleting-team", value: "payments") { featureCount } }`)).tag.featureCount,
    ).toBe(1);
    const data = await gqlOk(
      t,
      `mutation { deleteTag(type: "deleting-team", value: "payments") { type value featureCount } }`,
    );
    expect(data.deleteTag).toEqual({ type: "deleting-team", value: "payments", featureCount: 1 });
    expect((await gqlOk(t, `{ feature(name: "checkout") { tags { type value } } }`)).feature.tags).toEqual(
      [],
    );
    const [event] = await eventsAbout("deleting-team", ["tag-deleted"]);
    expect(event).toMatchObject({ data: null, preData: { type: "deleting-team", value: "payments" } });
    expect(
      await gqlError(t, `mutation { deleteTag(type: "deleting-team", value: "payments") { type } }`),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("deleting a tag type deletes its tags and untags flags (cascade), one tag-type-deleted event", async () => {
    await tagType("cascade-team", { description: "Owning team", color: "#fff" });
    await tagType("cascade-area");
    await gqlOk(t, CREATE_TAG, { input: { type: "cascade-team", value: "growth" } });
    await createFlag(t, "signup", {
      tags: [
        { type: "cascade-team", value: "growth" },
        { type: "cascade-area", value: "web" },
      ],
    });
    const data = await gqlOk(t, `mutation { deleteTagType(name: "cascade-team") { name tagCount } }`);
    expect(data.deleteTagType).toEqual({ name: "cascade-team", tagCount: 1 });
    expect((await gqlOk(t, `{ feature(name: "signup") { tags { type value } } }`)).feature.tags).toEqual([
      { type: "cascade-area", value: "web" },
    ]);
    const tags = (await gqlOk(t, `{ tags { type value } }`)).tags;
    expect(ofTypes(tags, ["cascade-team", "cascade-area"])).toEqual([{ type: "cascade-area", value: "web" }]);
    const events = [
      ...(await eventsAbout("cascade-team", ["tag-type-deleted", "tag-deleted"])),
      ...(await eventsOf(t, ["feature-untagged"])).filter((e) => e.featureName === "signup"),
    ].sort((a, b) => a.id - b.id);
    // The cascade records the type's deletion only, not each tag's or flag's.
    expect(events.map((e) => e.type)).toEqual(["tag-type-deleted"]);
    expect(events[0]?.preData).toEqual({
      name: "cascade-team",
      description: "Owning team",
      icon: null,
      color: "#fff",
    });
    expect(await gqlError(t, `mutation { deleteTagType(name: "cascade-team") { name } }`)).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("GET /api/admin/tag-types answers {version, tagTypes}; POST 201/409/400; GET one; PUT; DELETE", async () => {
    await tagType("rest-area");
    const created = await t.rest("POST", "/api/admin/tag-types", { name: "plain", description: "Plain" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "plain", description: "Plain", icon: null, color: null });
    expect((await t.rest("POST", "/api/admin/tag-types", { name: "plain" })).status).toBe(409);
    const bad = await t.rest("POST", "/api/admin/tag-types", { description: "no name" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/name/);
    const list = await t.rest("GET", "/api/admin/tag-types");
    expect(list.body.version).toBe(1);
    const names = list.body.tagTypes.map((type: { name: string }) => type.name);
    expect(names).toEqual([...names].sort());
    expect(ofTypes(list.body.tagTypes, ["rest-area", "plain", "simple"])).toEqual([
      { name: "plain", description: "Plain", icon: null, color: null },
      { name: "rest-area", description: null, icon: null, color: null },
      { name: "simple", description: "Used to simplify filtering of features", icon: "#", color: null },
    ]);
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
    await tagType("rest-plain");
    await tagType("rest-zone");
    await gqlOk(t, CREATE_TAG, { input: { type: "rest-zone", value: "web" } });
    const created = await t.rest("POST", "/api/admin/tags", { type: "rest-plain", value: "beta" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ version: 1, tag: { type: "rest-plain", value: "beta" } });
    expect((await t.rest("POST", "/api/admin/tags", { type: "nope", value: "beta" })).status).toBe(404);
    expect((await t.rest("POST", "/api/admin/tags", { type: "rest-plain", value: "beta" })).status).toBe(409);
    const short = await t.rest("POST", "/api/admin/tags", { type: "rest-plain", value: "b" });
    expect(short.status).toBe(400);
    expect(short.body.details[0].path).toBe("value");
    const all = (await t.rest("GET", "/api/admin/tags")).body;
    expect(all.version).toBe(1);
    expect(ofTypes(all.tags, ["rest-plain", "rest-zone"])).toEqual([
      { type: "rest-plain", value: "beta" },
      { type: "rest-zone", value: "web" },
    ]);
    expect((await t.rest("GET", "/api/admin/tags/rest-plain")).body).toEqual({
      version: 1,
      tags: [{ type: "rest-plain", value: "beta" }],
    });
    expect((await t.rest("GET", "/api/admin/tags/rest-plain/beta")).body).toEqual({
      version: 1,
      tag: { type: "rest-plain", value: "beta" },
    });
    expect((await t.rest("GET", "/api/admin/tags/rest-plain/nope")).status).toBe(404);
    expect(await t.rest("DELETE", "/api/admin/tags/rest-plain/beta")).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect((await t.rest("DELETE", "/api/admin/tags/rest-plain/beta")).status).toBe(404);
    expect((await t.rest("DELETE", "/api/admin/tag-types/rest-plain")).status).toBe(200);
    expect((await t.rest("DELETE", "/api/admin/tag-types/rest-plain")).status).toBe(404);
  });
});
