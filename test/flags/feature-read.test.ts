import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, userWithPat } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";
let aliceToken: string;
let viewerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  aliceToken = (await userWithPat(t, "alice", "Admin", { name: "Alice" })).token;
  viewerToken = (await userWithPat(t, "vera", "Viewer")).token;
  await createFlag(t, "top", { description: "parent" });
  await createFlag(t, "leaf", { tags: [{ type: "simple", value: "zeta" }] });
  await t.rest("POST", `${P}/features/leaf/dependencies`, { feature: "top", variants: ["v1"] }, aliceToken);
  await t.rest("POST", "/api/admin/features/leaf/tags", { type: "simple", value: "alpha" }, aliceToken);
  await t.rest("POST", `${P}/features/leaf/favorites`, undefined, aliceToken);
});
afterAll(() => t.close());

describe("the Feature record (spec 2.8)", () => {
  it("returns every field, per caller where it depends on the caller", async () => {
    const asAlice = await t.rest("GET", `${P}/features/leaf`, undefined, aliceToken);
    expect(asAlice.status).toBe(200);
    expect(asAlice.body).toEqual({
      name: "leaf",
      type: "release",
      description: null,
      archived: false,
      project: "default",
      enabled: false,
      stale: false,
      favorite: true,
      impressionData: false,
      createdAt: expect.any(String),
      createdBy: { id: -42, name: "Admin API token", imageUrl: "http://localhost:4242/avatars/-42.svg" },
      archivedAt: null,
      lastSeenAt: null,
      environments: [
        expect.objectContaining({
          name: "development",
          type: "development",
          enabled: false,
          strategies: [],
          variants: [],
        }),
        expect.objectContaining({
          name: "production",
          type: "production",
          enabled: false,
          strategies: [],
          variants: [],
        }),
      ],
      variants: [],
      strategies: [],
      tags: [
        { type: "simple", value: "alpha" },
        { type: "simple", value: "zeta" },
      ],
      children: [],
      lifecycle: { stage: "initial", enteredStageAt: expect.any(String) },
      links: [],
      dependencies: [{ feature: "top", enabled: true, variants: ["v1"] }],
      collaborators: {
        users: [
          {
            id: expect.any(Number),
            name: "Alice",
            imageUrl: expect.stringMatching(/^http:\/\/localhost:4242\/avatars\/\d+\.svg$/),
          },
        ],
      },
    });
    const asToken = await t.rest("GET", `${P}/features/leaf`);
    expect(asToken.body.favorite).toBe(false);
    const top = await t.rest("GET", `${P}/features/top`);
    expect(top.body).toMatchObject({ children: ["leaf"], dependencies: [], collaborators: { users: [] } });
  });

  it("lists collaborators by their latest change first, each once", async () => {
    await createFlag(t, "shared");
    const bob = (await userWithPat(t, "bob", "Admin", { name: "Bob" })).token;
    const describe = (text: string, token: string) =>
      t.rest("PATCH", `${P}/features/shared`, [{ op: "replace", path: "/description", value: text }], token);
    for (const [text, token] of [
      ["a", aliceToken],
      ["b", bob],
      ["c", aliceToken],
    ] as const) {
      expect((await describe(text, token)).status).toBe(200);
    }
    const names = async () =>
      ((await t.rest("GET", `${P}/features/shared`)).body.collaborators.users as { name: string }[]).map(
        (u) => u.name,
      );
    expect(await names()).toEqual(["Alice", "Bob"]);
    expect((await describe("d", bob)).status).toBe(200);
    expect(await names()).toEqual(["Bob", "Alice"]);
  });
});

describe("permissions", () => {
  it("a Viewer may read but not change flags (403 NoAccessError naming the permission)", async () => {
    expect((await t.rest("GET", `${P}/features/leaf`, undefined, viewerToken)).status).toBe(200);
    const cases: [string, string, unknown, string][] = [
      ["PUT", `${P}/features/leaf`, { description: "x" }, "UPDATE_FEATURE"],
      ["DELETE", `${P}/features/leaf`, undefined, "DELETE_FEATURE"],
      ["POST", `${P}/revive`, { features: ["leaf"] }, "UPDATE_FEATURE"],
      ["POST", `${P}/features/leaf/dependencies`, { feature: "top" }, "UPDATE_FEATURE_DEPENDENCY"],
      ["POST", "/api/admin/features/leaf/tags", { type: "simple", value: "nope" }, "UPDATE_FEATURE"],
    ];
    for (const [method, path, body, permission] of cases) {
      const res = await t.rest(method, path, body, viewerToken);
      expect({ path, status: res.status, permissions: res.body.permissions }).toEqual({
        path,
        status: 403,
        permissions: [permission],
      });
    }
    expect((await t.rest("POST", `${P}/features/top/favorites`, undefined, viewerToken)).status).toBe(200);
    expect((await t.rest("GET", `${P}/features/top`, undefined, viewerToken)).body.favorite).toBe(true);
    expect((await t.rest("GET", `${P}/features/top`, undefined, aliceToken)).body.favorite).toBe(false);
  });
});
