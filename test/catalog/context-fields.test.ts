import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { eventsOf, gqlError, gqlOk } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIELDS = "name description stickiness sortOrder legalValues { value description }";
const CREATE = `mutation($input: CreateContextFieldInput!) { createContextField(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($name: String!, $input: UpdateContextFieldInput!) {
  updateContextField(name: $name, input: $input) { ${FIELDS} } }`;
const DELETE = `mutation($name: String!) { deleteContextField(name: $name) { ${FIELDS} } }`;

/** The events of these types about field `name` (in their data or preData), oldest first. */
const eventsAbout = async (name: string, types: string[]) =>
  (await eventsOf(t, types)).filter((e) => (e.data ?? e.preData)?.name === name);

/** The field "region" of the first test, made under another name. */
const regionInput = (name: string) => ({
  name,
  description: "Where the user is",
  stickiness: true,
  sortOrder: 3,
  legalValues: [{ value: "eu", description: "Europe" }, { value: "us" }],
});

describe("context fields over GraphQL", () => {
  it("creates a field with legal values and records context-field-created", async () => {
    const input = {
      name: "region",
      description: "Where the user is",
      stickiness: true,
      sortOrder: 3,
      legalValues: [{ value: "eu", description: "Europe" }, { value: "us" }],
    };
    const data = await gqlOk(t, CREATE, { input });
    const expected = {
      ...input,
      legalValues: [
        { value: "eu", description: "Europe" },
        { value: "us", description: null },
      ],
    };
    expect(data.createContextField).toEqual(expected);
    const listed = (await gqlOk(t, `{ contextFields { ${FIELDS} } }`)).contextFields;
    expect(listed.filter((f: { name: string }) => f.name === "region")).toEqual([expected]);
    const [event] = await eventsAbout("region", ["context-field-created"]);
    expect(event).toMatchObject({
      label: "Context field created",
      preData: null,
      data: { ...input, legalValues: [{ value: "eu", description: "Europe" }, { value: "us" }] },
    });
  });

  it("defaults stickiness, sortOrder and legal values", async () => {
    const data = await gqlOk(t, CREATE, { input: { name: "defaulted" } });
    expect(data.createContextField).toEqual({
      name: "defaulted",
      description: null,
      stickiness: false,
      sortOrder: 10,
      legalValues: [],
    });
  });

  it("refuses a taken name, bad names and duplicate legal values, naming the field", async () => {
    await gqlOk(t, CREATE, { input: { name: "taken" } });
    expect(await gqlError(t, CREATE, { input: { name: "taken" } })).toMatchObject({ code: "NAME_EXISTS" });
    expect((await gqlError(t, CREATE, { input: { name: "a b" } })).message).toMatch(/^name: /);
    const dup = await gqlError(t, CREATE, {
      input: { name: "plan", legalValues: [{ value: "x" }, { value: "x" }] },
    });
    expect(dup).toMatchObject({ code: "VALIDATION", message: "legalValues: values must be unique" });
    const empty = await gqlError(t, CREATE, { input: { name: "plan", legalValues: [{ value: "" }] } });
    expect(empty.message).toMatch(/^legalValues\.0\.value: /);
  });

  it("updates with data and preData; unchanged records nothing; unknown is NOT_FOUND", async () => {
    await gqlOk(t, CREATE, { input: regionInput("updated-region") });
    const data = await gqlOk(t, UPDATE, {
      name: "updated-region",
      input: { stickiness: false, legalValues: [{ value: "apac" }] },
    });
    expect(data.updateContextField).toMatchObject({
      stickiness: false,
      legalValues: [{ value: "apac", description: null }],
    });
    await gqlOk(t, UPDATE, {
      name: "updated-region",
      input: { stickiness: false, description: "Where the user is" },
    });
    const events = await eventsAbout("updated-region", ["context-field-updated"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      data: { name: "updated-region", stickiness: false, legalValues: [{ value: "apac" }] },
      preData: {
        name: "updated-region",
        stickiness: true,
        legalValues: [{ value: "eu", description: "Europe" }, { value: "us" }],
      },
    });
    expect(await gqlError(t, UPDATE, { name: "nope", input: { sortOrder: 1 } })).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("deletes, answering the field as it was, with the deleted field as preData", async () => {
    await gqlOk(t, CREATE, { input: { name: "deleted-tenant" } });
    const data = await gqlOk(t, DELETE, { name: "deleted-tenant" });
    expect(data.deleteContextField.name).toBe("deleted-tenant");
    expect(await gqlError(t, `{ contextField(name: "deleted-tenant") { name } }`)).toMatchObject({
      code: "NOT_FOUND",
    });
    const [event] = await eventsAbout("deleted-tenant", ["context-field-deleted"]);
    expect(event).toMatchObject({
      data: null,
      preData: { name: "deleted-tenant", stickiness: false, sortOrder: 10 },
    });
    expect(await gqlError(t, DELETE, { name: "deleted-tenant" })).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("context fields over REST", () => {
  it("GET /api/admin/context lists fields as an array; GET one; 404", async () => {
    await gqlOk(t, CREATE, { input: { ...regionInput("listed-region"), stickiness: false } });
    const list = await t.rest("GET", "/api/admin/context");
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.filter((f: { name: string }) => f.name === "listed-region")).toEqual([
      expect.objectContaining({ name: "listed-region", stickiness: false, createdAt: expect.any(String) }),
    ]);
    expect((await t.rest("GET", "/api/admin/context/listed-region")).body.name).toBe("listed-region");
    const missing = await t.rest("GET", "/api/admin/context/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.name).toBe("NotFoundError");
  });

  it("POST creates (201), 409 taken, 400 naming the field; PUT updates; DELETE deletes", async () => {
    const created = await t.rest("POST", "/api/admin/context", {
      name: "plan",
      legalValues: [{ value: "free" }, { value: "pro", description: "Paying" }],
      usedInFeatures: 0,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "plan",
      stickiness: false,
      legalValues: [
        { value: "free", description: null },
        { value: "pro", description: "Paying" },
      ],
    });
    expect((await t.rest("POST", "/api/admin/context", { name: "plan" })).status).toBe(409);
    const bad = await t.rest("POST", "/api/admin/context", { name: "plan 2" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ name: "ValidationError", details: [{ path: "name" }] });
    const badType = await t.rest("POST", "/api/admin/context", { name: "plan2", stickiness: "yes" });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toMatch(/stickiness/);

    const updated = await t.rest("PUT", "/api/admin/context/plan", { description: "Billing plan" });
    expect(updated).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", "/api/admin/context/plan")).body).toMatchObject({
      description: "Billing plan",
      legalValues: [{ value: "free" }, { value: "pro" }],
    });
    expect((await t.rest("PUT", "/api/admin/context/nope", {})).status).toBe(404);
    const deleted = await t.rest("DELETE", "/api/admin/context/plan");
    expect(deleted).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("DELETE", "/api/admin/context/plan")).status).toBe(404);
    const types = (
      await eventsOf(t, ["context-field-created", "context-field-updated", "context-field-deleted"])
    ).map((e) => e.type);
    expect(types.slice(-3)).toEqual([
      "context-field-created",
      "context-field-updated",
      "context-field-deleted",
    ]);
  });
});
