import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's project API tokens and environment default strategy (issue 14). Answers are
 * checked against each route's response schema; the concurrency case really overlaps on
 * PostgreSQL (TEST_DATABASE_URL).
 */
let t: TestApp;
let viewer: string;
let owner: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "pa-viewer", "Viewer")).token;
  owner = await userWithPat(t, "pa-owner", "Viewer");
});
afterAll(() => t.close());

const TOKENS = "/api/admin/projects/default/api-tokens";
const events = (type: string, project?: string) =>
  t.database.prisma.event.findMany({ where: { type, project }, orderBy: { id: "asc" } });

/** A project of the test's own (id = name), with development and production. */
async function createProject(id: string) {
  expect((await t.rest("POST", "/api/admin/projects", { id, name: id })).status).toBe(201);
}

describe("project API tokens", () => {
  it("create (secret once), list (no secret), use, revoke by secret", async () => {
    // A project of its own, its owner pa-owner: the list is of this test's tokens only.
    await createProject("tokens");
    const added = await t.gql(
      `mutation($u: Int!) { addProjectMember(project: "tokens", userId: $u, roleId: 4) }`,
      { u: owner.id },
    );
    expect(added.errors).toBeUndefined();
    const OWN_TOKENS = "/api/admin/projects/tokens/api-tokens";
    const created = await t.rest(
      "POST",
      OWN_TOKENS,
      { tokenName: "backend-svc", type: "backend", environment: "production", x: 1 },
      owner.token,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      tokenName: "backend-svc",
      type: "client",
      environment: "production",
      project: "tokens",
      projects: ["tokens"],
      secret: expect.stringMatching(/^tokens:production\./),
    });
    const secret = created.body.secret as string;
    const list = await t.rest("GET", OWN_TOKENS, undefined, owner.token);
    expect(list.status).toBe(200);
    expect(list.body.tokens).toEqual([
      expect.objectContaining({ tokenName: "backend-svc", project: "tokens" }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(secret.indexOf(".") + 1));
    const sdk = await t.app.fetch("http://vexil.test/api/client/features", {
      headers: { authorization: secret },
    });
    expect(sdk.status).toBe(200);

    const deletedBefore = (await events("api-token-deleted")).length;
    expect(
      (await t.rest("DELETE", `${OWN_TOKENS}/${encodeURIComponent(secret)}`, undefined, owner.token)).status,
    ).toBe(200);
    expect((await t.rest("GET", OWN_TOKENS)).body.tokens).toEqual([]);
    expect(await events("api-token-deleted")).toHaveLength(deletedBefore + 1);
    const after = await t.app.fetch("http://vexil.test/api/client/features", {
      headers: { authorization: secret },
    });
    expect(after.status).toBe(401);
    // unknown secret: 200, as Unleash; nothing recorded
    expect((await t.rest("DELETE", `${OWN_TOKENS}/tokens:production.nope`)).status).toBe(200);
    expect(await events("api-token-deleted")).toHaveLength(deletedBefore + 1);
  });

  it("refuses admin tokens (400), unknown projects (404) and callers without the project permission (403)", async () => {
    expect((await t.rest("POST", TOKENS, { tokenName: "a", type: "admin" })).status).toBe(400);
    expect(
      (await t.rest("POST", TOKENS, { tokenName: "a", type: "client", environment: "nowhere" })).status,
    ).toBe(400);
    expect((await t.rest("POST", TOKENS, { type: "client" })).status).toBe(400);
    expect((await t.rest("GET", "/api/admin/projects/nope/api-tokens")).status).toBe(404);
    expect(
      (await t.rest("POST", "/api/admin/projects/nope/api-tokens", { tokenName: "a", type: "client" }))
        .status,
    ).toBe(404);
    expect((await t.rest("GET", TOKENS, undefined, viewer)).status).toBe(403);
    expect((await t.rest("POST", TOKENS, { tokenName: "a", type: "client" }, viewer)).status).toBe(403);
    expect((await t.rest("DELETE", `${TOKENS}/x`, undefined, viewer)).status).toBe(403);
  });

  it("a token that serves several projects is not revoked through one of them", async () => {
    expect((await t.rest("POST", "/api/admin/projects", { id: "second", name: "Second" })).status).toBe(201);
    const shared = await t.rest("POST", "/api/admin/api-tokens", {
      tokenName: "shared",
      type: "client",
      environment: "development",
      projects: ["default", "second"],
    });
    expect(shared.status).toBe(201);
    expect(
      (await t.rest("GET", TOKENS)).body.tokens.map((x: { tokenName: string }) => x.tokenName),
    ).toContain("shared");
    expect((await t.rest("DELETE", `${TOKENS}/${encodeURIComponent(shared.body.secret)}`)).status).toBe(400);
  });
});

const DEFAULT = "/api/admin/projects/default/environments/development/default-strategy";

describe("environment default strategy", () => {
  it("is stored, answered, recorded, and used when a flag is enabled", async () => {
    await createProject("stored");
    const DEFAULT = "/api/admin/projects/stored/environments/development/default-strategy";
    const body = {
      name: "flexibleRollout",
      parameters: { rollout: 25, stickiness: "userId" },
      constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
      unknownField: true,
    };
    const res = await t.rest("POST", DEFAULT, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "flexibleRollout",
      parameters: { rollout: "25", stickiness: "userId" },
      constraints: [expect.objectContaining({ contextName: "appName", values: ["web"] })],
      variants: [],
      segments: [],
    });
    expect(
      (await events("default-strategy-updated", "stored")).map((e) => [e.project, e.environment]),
    ).toEqual([["stored", "development"]]);

    expect(
      (await t.rest("POST", "/api/admin/projects/stored/features", { name: "uses-default" })).status,
    ).toBe(201);
    const on = await t.rest(
      "POST",
      "/api/admin/projects/stored/features/uses-default/environments/development/on",
    );
    expect(on.status).toBe(200);
    const strategies = await t.rest(
      "GET",
      "/api/admin/projects/stored/features/uses-default/environments/development/strategies",
    );
    expect(strategies.body).toEqual([
      expect.objectContaining({
        name: "flexibleRollout",
        parameters: expect.objectContaining({ rollout: "25", stickiness: "userId", groupId: "uses-default" }),
      }),
    ]);
  });

  it("`*` sets every environment of the project; errors 400, 403, 404", async () => {
    await createProject("every-environment");
    const all = await t.rest(
      "POST",
      "/api/admin/projects/every-environment/environments/*/default-strategy",
      { name: "default" },
    );
    expect(all.status).toBe(200);
    const links = await t.database.prisma.projectEnvironment.findMany({
      where: { projectId: "every-environment" },
    });
    expect(links.map((l) => (l.defaultStrategy as { name: string }).name)).toEqual(["default", "default"]);
    expect((await t.rest("POST", DEFAULT, { parameters: {} })).status).toBe(400);
    expect(
      (
        await t.rest("POST", DEFAULT, {
          name: "default",
          constraints: [{ contextName: "appName", operator: "BOGUS" }],
        })
      ).status,
    ).toBe(400);
    expect((await t.rest("POST", DEFAULT, { name: "default", segments: [98765] })).status).toBe(400);
    expect(
      (
        await t.rest("POST", "/api/admin/projects/nope/environments/development/default-strategy", {
          name: "default",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.rest("POST", "/api/admin/projects/default/environments/nowhere/default-strategy", {
          name: "default",
        })
      ).status,
    ).toBe(404);
    expect((await t.rest("POST", DEFAULT, { name: "default" }, viewer)).status).toBe(403);
  });

  it("concurrent changes apply one after the other: each event's preData is the previous one's data", async () => {
    const before = (await events("default-strategy-updated", "default")).length;
    const results = await Promise.all(
      [10, 20, 30, 40].map((rollout) =>
        t.rest("POST", DEFAULT, { name: "flexibleRollout", parameters: { rollout, stickiness: "default" } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const recorded = (await events("default-strategy-updated", "default"))
      .slice(before)
      .filter((e) => e.environment === "development");
    expect(recorded).toHaveLength(4);
    for (let i = 1; i < recorded.length; i++) expect(recorded[i]?.preData).toEqual(recorded[i - 1]?.data);
    const stored = await t.database.prisma.projectEnvironment.findUnique({
      where: { projectId_environmentName: { projectId: "default", environmentName: "development" } },
    });
    expect(stored?.defaultStrategy).toEqual(recorded.at(-1)?.data);
  });
});
