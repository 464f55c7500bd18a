import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { untilWaitingOnLock } from "../helpers/concurrency.ts";
import { login } from "../helpers/session.ts";

/**
 * Unleash's public signup tokens (invite links, issue 14): admins manage them under
 * /api/admin/invite-link/tokens; anyone holding a usable link validates it and signs up under
 * /invite/:token. Answers are checked against each route's response schema (checkRestResponses).
 */
let t: TestApp;
let editor: Awaited<ReturnType<typeof userWithPat>>;
const TOKENS = "/api/admin/invite-link/tokens";
const FUTURE = "2099-01-01T00:00:00.000Z";
const STRONG = "Sign-Up-Passw0rd!";

beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "eddie-editor", "Editor");
});
afterAll(() => t.close());

async function newLink(name: string, expiresAt = FUTURE) {
  const res = await t.rest("POST", TOKENS, { name, expiresAt });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string; url: string };
}

async function eventsOf(type: string) {
  return t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } });
}

/** The events of this type about link `id` (by its id or name, in their data or preData). */
async function eventsOfLink(type: string, link: { id: number; name: string }) {
  return (await eventsOf(type)).filter((e) =>
    [e.data, e.preData].some((d) => {
      const about = d as { id?: number; name?: string } | null;
      return about?.id === link.id || about?.name === link.name;
    }),
  );
}

describe("managing invite links", () => {
  it("creates, lists, reads and updates a link (by secret or id); each change records its event, without the secret", async () => {
    const created = await t.rest("POST", TOKENS, { name: "Team invite", expiresAt: FUTURE });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Team invite",
      enabled: true,
      expiresAt: FUTURE,
      createdBy: "admin-token",
      users: [],
      role: { name: "Viewer", type: "root" },
    });
    const { secret, id } = created.body;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body.url).toBe(`${t.config.publicUrl}/new-user?invite=${secret}`);

    // Only the creation knows the secret: lists and reads show the link's id and no URL.
    const list = await t.rest("GET", TOKENS);
    expect(list.status).toBe(200);
    const listed = list.body.tokens.find((x: { id: number }) => x.id === id);
    expect(listed).toMatchObject({ name: "Team invite", url: null });
    expect(listed).not.toHaveProperty("secret");
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const one = await t.rest("GET", `${TOKENS}/${secret}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id, name: "Team invite", url: null });
    expect(one.body).not.toHaveProperty("secret");
    expect((await t.rest("GET", `${TOKENS}/${id}`)).body).toEqual(one.body);

    const updated = await t.rest("PUT", `${TOKENS}/${secret}`, { enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body.enabled).toBe(false);
    expect(updated.body).not.toHaveProperty("secret");
    const again = await t.rest("PUT", `${TOKENS}/${id}`, { enabled: false });
    expect(again.status).toBe(200);

    const link = { id, name: "Team invite" };
    const createdEvents = await eventsOfLink("public-signup-token-created", link);
    expect(createdEvents.at(-1)?.createdBy).toBe("admin-token");
    expect(createdEvents.at(-1)?.data).toMatchObject({ name: "Team invite" });
    const updatedEvents = await eventsOfLink("public-signup-token-updated", link);
    expect(updatedEvents).toHaveLength(1); // the second, unchanged PUT records nothing
    expect(updatedEvents[0]?.preData).toMatchObject({ enabled: true });
    expect(updatedEvents[0]?.data).toMatchObject({ enabled: false });
    for (const e of [...createdEvents, ...updatedEvents]) {
      expect(JSON.stringify([e.data, e.preData])).not.toContain(secret);
    }
  });

  it("GraphQL: the creation answers the secret and URL once; a link is a Relay node read back by id, databaseId or secret", async () => {
    const created = await t.gql<{
      createPublicSignupToken: { secret: string; url: string; token: { id: string; databaseId: number } };
    }>(
      `mutation($input: CreatePublicSignupTokenInput!) {
        createPublicSignupToken(input: $input) { secret url token { id databaseId } } }`,
      { input: { name: "Node", expiresAt: FUTURE } },
    );
    const { secret, url, token } = created.data?.createPublicSignupToken ?? expect.unreachable();
    expect(url).toBe(`${t.config.publicUrl}/new-user?invite=${secret}`);
    const node = await t.gql<{ node: { name: string } | null }>(
      "query($id: ID!) { node(id: $id) { ... on PublicSignupToken { name } } }",
      { id: token.id },
    );
    expect(node.data?.node).toEqual({ name: "Node" });
    const lookups = await t.gql<Record<string, { id: string } | null>>(
      `query($databaseId: Int, $secret: String) {
        byId: publicSignupToken(databaseId: $databaseId) { id }
        bySecret: publicSignupToken(secret: $secret) { id }
        wrong: publicSignupToken(secret: "0123456789abcdef0123456789abcdef") { id } }`,
      { databaseId: token.databaseId, secret },
    );
    expect(lookups.data).toEqual({ byId: { id: token.id }, bySecret: { id: token.id }, wrong: null });
    for (const args of ["", `(databaseId: ${token.databaseId}, secret: "${secret}")`]) {
      const res = await t.gql(`{ publicSignupToken${args} { id } }`);
      expect(res.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    }
    const disabled = await t.gql<{ updatePublicSignupToken: { enabled: boolean } }>(
      `mutation($secret: String) { updatePublicSignupToken(secret: $secret, input: { enabled: false }) { enabled } }`,
      { secret },
    );
    expect(disabled.data?.updatePublicSignupToken.enabled).toBe(false);
    const asEditor = await t.gql("query($id: ID!) { node(id: $id) { id } }", { id: token.id }, editor.token);
    expect(asEditor.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("an expired link is listed as not enabled", async () => {
    const { secret } = await newLink("Old", "2001-01-01T00:00:00.000Z");
    const one = await t.rest("GET", `${TOKENS}/${secret}`);
    expect(one.body.enabled).toBe(false);
  });

  it("400 on a bad body, 404 on an unknown link", async () => {
    expect((await t.rest("POST", TOKENS, { name: "x" })).status).toBe(400);
    expect((await t.rest("POST", TOKENS, { name: "", expiresAt: FUTURE })).status).toBe(400);
    expect((await t.rest("POST", TOKENS, { name: "x", expiresAt: "tomorrow" })).status).toBe(400);
    const { secret } = await newLink("Bad update");
    expect((await t.rest("PUT", `${TOKENS}/${secret}`, { enabled: "no" })).status).toBe(400);
    // A change that names nothing to change is refused, as Unleash 8.2 does.
    const updates = await eventsOf("public-signup-token-updated");
    for (const body of [{}, { expiresAt: null, enabled: null }]) {
      const empty = await t.rest("PUT", `${TOKENS}/${secret}`, body);
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ name: "ValidationError" });
    }
    expect(await eventsOf("public-signup-token-updated")).toHaveLength(updates.length);
    expect((await t.rest("GET", `${TOKENS}/nope`)).status).toBe(404);
    expect((await t.rest("PUT", `${TOKENS}/nope`, { enabled: false })).status).toBe(404);
    expect((await t.rest("GET", `${TOKENS}/999999`)).status).toBe(404);
    expect((await t.rest("PUT", `${TOKENS}/999999`, { enabled: false })).status).toBe(404);
  });

  it("admins only: 401 without a credential, 403 for an editor", async () => {
    const { secret } = await newLink("Guarded");
    for (const [method, path, body] of [
      ["GET", TOKENS, undefined],
      ["POST", TOKENS, { name: "x", expiresAt: FUTURE }],
      ["GET", `${TOKENS}/${secret}`, undefined],
      ["PUT", `${TOKENS}/${secret}`, { enabled: false }],
    ] as const) {
      expect((await t.rest(method, path, body, null)).status).toBe(401);
      expect((await t.rest(method, path, body, editor.token)).status).toBe(403);
    }
    expect((await t.rest("GET", `${TOKENS}/${secret}`)).body.enabled).toBe(true);
  });
});

describe("signing up with a link", () => {
  it("validate: 200 empty for a usable link; 400 unknown, disabled or expired", async () => {
    const { secret } = await newLink("Validate");
    const ok = await t.rest("GET", `/invite/${secret}/validate`, undefined, null);
    expect(ok.status).toBe(200);
    expect(ok.body).toBeUndefined();
    expect((await t.rest("GET", "/invite/unknown/validate", undefined, null)).status).toBe(400);
    const expired = await newLink("Expired", "2001-01-01T00:00:00.000Z");
    expect((await t.rest("GET", `/invite/${expired.secret}/validate`, undefined, null)).status).toBe(400);
    await t.rest("PUT", `${TOKENS}/${secret}`, { enabled: false });
    const disabled = await t.rest("GET", `/invite/${secret}/validate`, undefined, null);
    expect(disabled.status).toBe(400);
    expect(disabled.body).toMatchObject({ name: "ValidationError" });
  });

  it("signup: creates a user with the link's role, who can log in; events user-created and user-added", async () => {
    const { secret } = await newLink("Signup");
    const res = await t.rest(
      "POST",
      `/invite/${secret}/signup`,
      { email: "Newbie@Example.com", name: "New Bie", password: STRONG },
      null,
    );
    expect(res.status).toBe(200);
    const viewerRole = await t.database.prisma.role.findUniqueOrThrow({ where: { name: "Viewer" } });
    expect(res.body).toMatchObject({
      name: "New Bie",
      email: "newbie@example.com",
      rootRole: viewerRole.id,
      accountType: "User",
      seenAt: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|passwordHash/i);
    expect((await login(t, "newbie@example.com", STRONG)).status).toBe(200);

    const link = await t.rest("GET", `${TOKENS}/${secret}`);
    expect(link.body.users).toEqual([
      expect.objectContaining({ id: res.body.id, email: "newbie@example.com" }),
    ]);
    const userCreated = (await eventsOf("user-created")).at(-1);
    expect(userCreated).toMatchObject({ createdBy: "system", createdByUserId: -1337 });
    expect(userCreated?.data).toMatchObject({ id: res.body.id, rootRole: "Viewer" });
    const added = (await eventsOf("public-signup-token-user-added")).at(-1);
    expect(added?.data).toMatchObject({ userId: res.body.id, token: "Signup" });
    expect(JSON.stringify(added?.data)).not.toContain(secret);
  });

  it("signup: 400 for an unusable link, a missing field or a weak password; 409 for a taken email; nothing created", async () => {
    const { secret } = await newLink("Refusals");
    const before = await t.database.prisma.user.count();
    const body = { email: "refused@example.com", name: "Refused", password: STRONG };
    expect((await t.rest("POST", "/invite/unknown/signup", body, null)).status).toBe(400);
    const expired = await newLink("Expired signup", "2001-01-01T00:00:00.000Z");
    expect((await t.rest("POST", `/invite/${expired.secret}/signup`, body, null)).status).toBe(400);
    const disabled = await newLink("Disabled signup");
    await t.rest("PUT", `${TOKENS}/${disabled.secret}`, { enabled: false });
    expect((await t.rest("POST", `/invite/${disabled.secret}/signup`, body, null)).status).toBe(400);
    const weak = await t.rest("POST", `/invite/${secret}/signup`, { ...body, password: "short" }, null);
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/at least 10 characters/);
    expect(
      (await t.rest("POST", `/invite/${secret}/signup`, { email: "x@example.com", password: STRONG }, null))
        .status,
    ).toBe(400);
    const taken = await t.rest(
      "POST",
      `/invite/${secret}/signup`,
      { ...body, email: "eddie-editor@example.com" },
      null,
    );
    expect(taken.status).toBe(409);
    expect(await t.database.prisma.user.count()).toBe(before);
    // A known path asked with another method: 405, as on every surface of the route table.
    const wrongMethod = await t.rest("GET", `/invite/${secret}/signup`, undefined, null);
    expect(wrongMethod).toMatchObject({ status: 405, body: { name: "MethodNotAllowed" } });
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });

  it("signup: 503 while maintenance mode is on; validating still works", async () => {
    const { secret } = await newLink("Maintenance");
    expect((await t.rest("POST", "/api/admin/maintenance", { enabled: true })).status).toBe(204);
    try {
      const body = { email: "maint@example.com", name: "Maint", password: STRONG };
      const res = await t.rest("POST", `/invite/${secret}/signup`, body, null);
      expect(res.status).toBe(503);
      expect(res.body.name).toBe("MaintenanceModeError");
      expect((await t.rest("GET", `/invite/${secret}/validate`, undefined, null)).status).toBe(200);
      expect(await t.database.prisma.user.count({ where: { email: "maint@example.com" } })).toBe(0);
    } finally {
      expect((await t.rest("POST", "/api/admin/maintenance", { enabled: false })).status).toBe(204);
    }
  });

  it("two sign-ups with the same email at once create one user", async () => {
    const { secret } = await newLink("Race");
    const body = { email: "racer@example.com", name: "Racer", password: STRONG };
    const answers = await Promise.all([
      t.rest("POST", `/invite/${secret}/signup`, body, null),
      t.rest("POST", `/invite/${secret}/signup`, body, null),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await t.database.prisma.user.count({ where: { email: "racer@example.com" } })).toBe(1);
    const link = await t.rest("GET", `${TOKENS}/${secret}`);
    expect(link.body.users).toHaveLength(1);
  });

  // On PostgreSQL only: PGlite is one session, so no two transactions interleave there.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "a sign-up waits for a concurrent disable of its link and is then refused",
    async () => {
      const { secret, id } = await newLink("Disabled meanwhile");
      const pool = t.database.pool;
      if (!pool) throw new Error("PostgreSQL expected");
      const admin = await pool.connect();
      try {
        // Direct write: an API call's transaction cannot be held open while a sign-up waits on it.
        await admin.query("BEGIN");
        await admin.query(`UPDATE "PublicSignupToken" SET enabled = false WHERE id = $1`, [id]);
        const signup = t.rest(
          "POST",
          `/invite/${secret}/signup`,
          { email: "late@example.com", name: "Late", password: STRONG },
          null,
        );
        await untilWaitingOnLock(pool, signup, "%FOR SHARE%");
        await admin.query("COMMIT");
        expect((await signup).status).toBe(400);
        expect(await t.database.prisma.user.count({ where: { email: "late@example.com" } })).toBe(0);
      } finally {
        admin.release();
      }
    },
  );
});
