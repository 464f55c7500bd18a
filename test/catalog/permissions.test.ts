import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { eventsAfter, lastEventId, userWithPat } from "../helpers/builders.ts";

let t: TestApp;
let viewerToken: string;
beforeAll(async () => {
  t = await createTestApp();
  viewerToken = (await userWithPat(t, "viewer", "Viewer")).token;
});
afterAll(() => t.close());

const WRITES: [string, string][] = [
  ["CREATE_PROJECT", `mutation { createProject(input: { id: "p", name: "P" }) { id } }`],
  ["UPDATE_PROJECT", `mutation { updateProject(id: "default", input: { name: "X" }) { id } }`],
  ["DELETE_PROJECT", `mutation { archiveProject(id: "default") { id } }`],
  ["UPDATE_PROJECT", `mutation { enableProjectEnvironment(project: "default", environment: "x") { id } }`],
  ["CREATE_ENVIRONMENT", `mutation { createEnvironment(input: { name: "qa", type: "test" }) { name } }`],
  [
    "UPDATE_ENVIRONMENT",
    `mutation { updateEnvironment(name: "production", input: { sortOrder: 1 }) { name } }`,
  ],
  ["CREATE_CONTEXT_FIELD", `mutation { createContextField(input: { name: "region" }) { name } }`],
  ["DELETE_CONTEXT_FIELD", `mutation { deleteContextField(name: "region") { name } }`],
  ["CREATE_TAG_TYPE", `mutation { createTagType(input: { name: "team" }) { name } }`],
  ["DELETE_TAG_TYPE", `mutation { deleteTagType(name: "team") { name } }`],
  ["UPDATE_FEATURE", `mutation { createTag(input: { type: "team", value: "web" }) { value } }`],
];

describe("catalogue permissions", () => {
  it("refuses every catalogue change to a Viewer, naming the permission, and writes nothing", async () => {
    const mark = await lastEventId(t);
    for (const [permission, mutation] of WRITES) {
      const res = await t.gql(mutation, {}, viewerToken);
      expect(res.errors?.[0]?.extensions?.code, mutation).toBe("FORBIDDEN");
      expect(res.errors?.[0]?.message).toContain(`"${permission}"`);
    }
    expect(await eventsAfter(t, mark)).toEqual([]);
  });

  it("lets a Viewer read, and answers REST 403 / 401", async () => {
    const read = await t.gql(
      `{ projects { id } environments { name } contextFields { name } tagTypes { name } }`,
      {},
      viewerToken,
    );
    expect(read.errors).toBeUndefined();
    const forbidden = await t.rest("POST", "/api/admin/tag-types", { name: "team" }, viewerToken);
    expect(forbidden.status).toBe(403);
    expect((await t.rest("GET", "/api/admin/context", undefined, null)).status).toBe(401);
  });
});
