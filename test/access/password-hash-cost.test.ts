import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { Db } from "../../src/db/database.ts";
import { checkPassword } from "../../src/modules/access/login.write.ts";
import { hashPassword } from "../../src/modules/access/passwords.logic.ts";
import { ADMIN_PASSWORD } from "../helpers/admin.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/builders.ts";
import { login, PASSWORD } from "../helpers/session.ts";

/**
 * VEXIL_PASSWORD_HASH_COST: new hashes are made at 2^cost, a login rehashes a hash made at
 * another cost, and the rehash never overwrites a password changed meanwhile.
 */
let t: TestApp;
beforeAll(async () => {
  // The test template's admin was hashed at the tests' cost, 2^10.
  t = await createTestApp({ VEXIL_PASSWORD_HASH_COST: "11" });
});
afterAll(() => t.close());

const storedHash = async (username: string) =>
  (await t.database.prisma.user.findFirstOrThrow({ where: { username } })).passwordHash ?? "";

describe("VEXIL_PASSWORD_HASH_COST", () => {
  it("defaults to 15 and accepts 10 to 17", () => {
    expect(loadConfig({}).auth.passwordHashCost).toBe(15);
    expect(loadConfig({ VEXIL_PASSWORD_HASH_COST: "17" }).auth.passwordHashCost).toBe(17);
    for (const value of ["9", "18", "12.5", "high"]) {
      expect(() => loadConfig({ VEXIL_PASSWORD_HASH_COST: value }), value).toThrow(ConfigError);
    }
  });

  it("hashes a new user's password at 2^cost", async () => {
    await createUser(t, "new-hash", "Viewer");
    expect(await storedHash("new-hash")).toMatch(/^scrypt\$2048\$8\$1\$/);
    expect((await login(t, "new-hash")).status).toBe(200);
  });

  it("rehashes at the next login a hash made at another cost, and the password still works", async () => {
    expect(await storedHash("admin")).toMatch(/^scrypt\$1024\$/);
    expect((await login(t, "admin", "not-the-password")).status).toBe(401);
    expect(await storedHash("admin")).toMatch(/^scrypt\$1024\$/);

    expect((await login(t, "admin", ADMIN_PASSWORD)).status).toBe(200);
    const rehashed = await storedHash("admin");
    expect(rehashed).toMatch(/^scrypt\$2048\$8\$1\$/);
    expect((await login(t, "admin", ADMIN_PASSWORD)).status).toBe(200);
    expect(await storedHash("admin")).toBe(rehashed);
  });

  it("10 concurrent logins that each rehash the same old hash all succeed and leave one working hash", async () => {
    await createUser(t, "crowd", "Viewer");
    const users = t.database.prisma.user;
    const { id } = await users.findFirstOrThrow({ where: { username: "crowd" } });
    await users.update({ where: { id }, data: { passwordHash: await hashPassword(PASSWORD, 10) } });
    const logins = await Promise.all(Array.from({ length: 10 }, () => login(t, "crowd")));
    expect(logins.map((l) => l.status)).toEqual(Array(10).fill(200));
    expect(await storedHash("crowd")).toMatch(/^scrypt\$2048\$8\$1\$/);
    expect((await login(t, "crowd")).status).toBe(200);
  });

  it("does not undo a password change made while the login checked the old one", async () => {
    await createUser(t, "changing", "Viewer");
    const users = t.database.prisma.user;
    const { id } = await users.findFirstOrThrow({ where: { username: "changing" } });
    // A hash of another cost, so that the login rehashes it.
    await users.update({ where: { id }, data: { passwordHash: await hashPassword(PASSWORD, 10) } });
    // Another request changes the password between this login's check and its rehash.
    const db = {
      user: {
        findFirst: users.findFirst.bind(users),
        updateMany: users.updateMany.bind(users),
        update: async (args: Parameters<typeof users.update>[0]) => {
          const updated = await users.update(args);
          await users.update({ where: { id }, data: { passwordHash: "changed-meanwhile" } });
          return updated;
        },
      },
    } as unknown as Db;
    const user = await users.findFirstOrThrow({ where: { id } });
    await checkPassword({ db, logger: t.deps.logger }, user, PASSWORD, new Date(), 11);
    expect(await storedHash("changing")).toBe("changed-meanwhile");
  });
});
