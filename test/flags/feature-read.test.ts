import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "../../src/modules/access/credentials.write.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";
const ALICE = "user:alice-secret-0123456789abcdef0123456789abcdef01234567";
const VIEWER = "user:viewer-secret-0123456789abcdef0123456789abcdef0123456";

beforeAll(async () => {
  t = await createTestApp();
  const alice = await t.database.prisma.user.create({
    data: { username: "alice", name: "Alice", rootRole: "Admin" },
  });
  await t.database.prisma.personalAccessToken.create({
    data: {
      userId: alice.id,
      description: "test",
      secretHash: hashSecret(ALICE),
      expiresAt: new Date("2100-01-01"),
    },
  });
  const viewer = await t.database.prisma.user.create({ data: { username: "vera", rootRole: "Viewer" } });
  await t.database.prisma.personalAccessToken.create({
    data: {
      userId: viewer.id,
      description: "test",
      secretHash: hashSecret(VIEWER),
      expiresAt: new Date("2100-01-01"),
    },
  });
  await createFlag(t, "top", { description: "parent" });
  await createFlag(t, "leaf", { tags: [{ type: "simple", value: "zeta" }] });
  await t.rest("POST", `${P}/features/leaf/dependencies`, { feature: "top", variants: ["v1"] }, ALICE);
  await t.rest("POST", "/api/admin/features/leaf/tags", { type: "simple", value: "alpha" }, ALICE);
  await t.rest("POST", `${P}/features/leaf/favorites`, undefined, ALICE);
});
afterAll(() => t.close());

describe("the Feature record (spec 2.8)", () => {
  it("returns every field, per caller where it depends on the caller", async () => {
    const asAlice = await t.rest("GET", `${P}/features/leaf`, undefined, ALICE);
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
});

describe("permissions", () => {
  it("a Viewer may read but not change flags (403 NoAccessError naming the permission)", async () => {
    expect((await t.rest("GET", `${P}/features/leaf`, undefined, VIEWER)).status).toBe(200);
    const cases: [string, string, unknown, string][] = [
      ["PUT", `${P}/features/leaf`, { description: "x" }, "UPDATE_FEATURE"],
      ["DELETE", `${P}/features/leaf`, undefined, "DELETE_FEATURE"],
      ["POST", `${P}/revive`, { features: ["leaf"] }, "UPDATE_FEATURE"],
      ["POST", `${P}/features/leaf/dependencies`, { feature: "top" }, "UPDATE_FEATURE_DEPENDENCY"],
      ["POST", "/api/admin/features/leaf/tags", { type: "simple", value: "nope" }, "UPDATE_FEATURE"],
    ];
    for (const [method, path, body, permission] of cases) {
      const res = await t.rest(method, path, body, VIEWER);
      expect({ path, status: res.status, permissions: res.body.permissions }).toEqual({
        path,
        status: 403,
        permissions: [permission],
      });
    }
    expect((await t.rest("POST", `${P}/features/top/favorites`, undefined, VIEWER)).status).toBe(200);
    expect((await t.rest("GET", `${P}/features/top`, undefined, VIEWER)).body.favorite).toBe(true);
    expect((await t.rest("GET", `${P}/features/top`, undefined, ALICE)).body.favorite).toBe(false);
  });
});
