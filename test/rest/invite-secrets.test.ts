import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/sql-observer.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Invite links keep only the SHA-256 of their secret, as API tokens, personal access tokens and
 * sessions do: the secret reaches the database neither as a value nor as a statement's
 * parameter, and a copy of the tables gives no usable link. Checked through REST and GraphQL.
 */
let t: TestApp;
const sent: { sql: string; args: readonly unknown[] }[] = [];
const TOKENS = "/api/admin/invite-link/tokens";
const FUTURE = "2099-01-01T00:00:00.000Z";
const PAST = "2001-01-01T00:00:00.000Z";
const STRONG = "Sign-Up-Passw0rd!";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

beforeAll(async () => {
  t = await createTestApp(
    {},
    { wrapAdapter: observeStatements((sql, _ms, args) => sent.push({ sql, args })) },
  );
});
afterAll(() => t.close());

async function restLink(name: string, expiresAt = FUTURE) {
  const res = await t.rest("POST", TOKENS, { name, expiresAt });
  expect(res.status).toBe(201);
  return res.body as { id: number; secret: string };
}

async function graphLink(name: string) {
  const res = await t.gql<{ createPublicSignupToken: { secret: string; token: { databaseId: number } } }>(
    `mutation($input: CreatePublicSignupTokenInput!) {
      createPublicSignupToken(input: $input) { secret token { databaseId } } }`,
    { input: { name, expiresAt: FUTURE } },
  );
  const created = res.data?.createPublicSignupToken ?? expect.unreachable(JSON.stringify(res.errors));
  return { id: created.token.databaseId, secret: created.secret };
}

/** Every value of the invite tables' rows, as text. */
async function storedRows(): Promise<string> {
  const rows = await t.database.prisma.$queryRawUnsafe<{ row: unknown }[]>(
    `SELECT to_jsonb(l) AS row FROM "PublicSignupToken" l
     UNION ALL SELECT to_jsonb(u) FROM "PublicSignupTokenUser" u`,
  );
  return JSON.stringify(rows);
}

/** The statements `work` sent, with their parameters. */
async function statementsOf(work: () => Promise<unknown>) {
  const from = sent.length;
  await work();
  return sent.slice(from);
}

describe("an invite link's secret is never stored", () => {
  it("REST and GraphQL creations, a validation and a sign-up send the database only the secret's hash", async () => {
    const links: { id: number; secret: string }[] = [];
    const statements = await statementsOf(async () => {
      links.push(await restLink("Hashed over REST"), await graphLink("Hashed over GraphQL"));
      for (const { secret } of links) {
        expect((await t.rest("GET", `/invite/${secret}/validate`, undefined, null)).status).toBe(200);
        expect((await t.rest("GET", `${TOKENS}/${secret}`)).status).toBe(200);
      }
      const signup = await t.rest(
        "POST",
        `/invite/${links[0]?.secret}/signup`,
        { email: "hashed@example.com", name: "Hashed", password: STRONG },
        null,
      );
      expect(signup.status).toBe(200);
    });
    const parameters = JSON.stringify(statements.map((s) => s.args));
    const rows = await storedRows();
    for (const { id, secret } of links) {
      expect(parameters).not.toContain(secret);
      expect(parameters).toContain(sha256(secret));
      expect(rows).not.toContain(secret);
      const stored = await t.database.prisma.publicSignupToken.findUniqueOrThrow({ where: { id } });
      expect(stored.secretHash).toBe(sha256(secret));
    }
    const events = await t.database.prisma.event.findMany({
      where: { type: { startsWith: "public-signup" } },
    });
    const recorded = JSON.stringify(events.map((e) => [e.data, e.preData]));
    for (const { secret } of links) {
      expect(recorded).not.toContain(secret);
      expect(recorded).not.toContain(sha256(secret));
    }
  });

  it("the link works end to end: created, validated, signed up with, the user logs in and is listed under it", async () => {
    const { id, secret } = await graphLink("End to end");
    expect((await t.rest("GET", `/invite/${secret}/validate`, undefined, null)).status).toBe(200);
    const user = await t.rest(
      "POST",
      `/invite/${secret}/signup`,
      { email: "e2e@example.com", name: "End To End", password: STRONG },
      null,
    );
    expect(user.status).toBe(200);
    const login = await t.rest(
      "POST",
      "/auth/simple/login",
      { username: "e2e@example.com", password: STRONG },
      null,
    );
    expect(login.status).toBe(200);
    const link = await t.rest("GET", `${TOKENS}/${id}`);
    expect(link.body.users).toEqual([
      expect.objectContaining({ id: user.body.id, email: "e2e@example.com" }),
    ]);
  });

  it("refuses a wrong secret: one character off, the stored hash itself, the link's id; nothing is created", async () => {
    const { id, secret } = await restLink("Guessed");
    const last = secret.at(-1) === "0" ? "1" : "0";
    const wrong = [`${secret.slice(0, -1)}${last}`, sha256(secret), String(id), secret.toUpperCase()];
    const users = await t.database.prisma.user.count();
    for (const guess of wrong) {
      const validate = await t.rest("GET", `/invite/${encodeURIComponent(guess)}/validate`, undefined, null);
      expect(validate.status).toBe(400);
      expect(validate.body).toMatchObject({ name: "ValidationError" });
      const signup = await t.rest(
        "POST",
        `/invite/${encodeURIComponent(guess)}/signup`,
        { email: `guess-${guess.length}-${users}@example.com`, name: "Guess", password: STRONG },
        null,
      );
      expect(signup.status).toBe(400);
    }
    expect(await t.database.prisma.user.count()).toBe(users);
    expect((await t.rest("GET", `/invite/${secret}/validate`, undefined, null)).status).toBe(200);
  });

  it("an unknown, a disabled and an expired link are refused after the same statements: one lookup of the hash", async () => {
    const disabled = await restLink("Off");
    expect((await t.rest("PUT", `${TOKENS}/${disabled.id}`, { enabled: false })).status).toBe(200);
    const expired = await restLink("Old", PAST);
    const unknown = "0123456789abcdef0123456789abcdef";
    const refusals: Record<string, { validate: string[]; signup: string[] }> = {};
    for (const [what, secret] of [
      ["unknown", unknown],
      ["disabled", disabled.secret],
      ["expired", expired.secret],
    ] as const) {
      const validate = await statementsOf(async () => {
        expect((await t.rest("GET", `/invite/${secret}/validate`, undefined, null)).status).toBe(400);
      });
      expect(validate).toHaveLength(1);
      expect(validate[0]?.args).toContain(sha256(secret));
      const signup = await statementsOf(async () => {
        const body = { email: `${what}@example.com`, name: what, password: STRONG };
        expect((await t.rest("POST", `/invite/${secret}/signup`, body, null)).status).toBe(400);
      });
      refusals[what] = { validate: validate.map((s) => s.sql), signup: signup.map((s) => s.sql) };
    }
    expect(refusals.disabled).toEqual(refusals.unknown);
    expect(refusals.expired).toEqual(refusals.unknown);
  });
});
