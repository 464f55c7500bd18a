import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { ADMIN_PASSWORD } from "../helpers/admin.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/builders.ts";
import { login, PASSWORD } from "../helpers/session.ts";

/**
 * VEXIL_PASSWORD_HASH_COST: new hashes are made at 2^cost, a login rehashes a hash made at
 * another cost, and the rehash never overwrites a password changed meanwhile.
 */
const during = vi.hoisted(() => ({ verify: null as null | (() => Promise<void>) }));
vi.mock("../../src/modules/access/passwords.logic.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/modules/access/passwords.logic.ts")>();
  return {
    ...real,
    verifyPassword: async (password: string, stored: string) => {
      const matches = await real.verifyPassword(password, stored);
      await during.verify?.();
      return matches;
    },
  };
});

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

  it("does not undo a password change made while the login checked the old one", async () => {
    await createUser(t, "changing", "Viewer");
    const id = (await t.database.prisma.user.findFirstOrThrow({ where: { username: "changing" } })).id;
    // The hash of the cost-10 app, so that the login would rehash it.
    await t.database.prisma.user.update({
      where: { id },
      data: { passwordHash: await hashAt(10, PASSWORD) },
    });
    // Another request changes the password while this login's hash check runs.
    during.verify = async () => {
      during.verify = null;
      await t.database.prisma.user.update({ where: { id }, data: { passwordHash: "changed-meanwhile" } });
    };
    expect((await login(t, "changing")).status).toBe(200);
    expect(await storedHash("changing")).toBe("changed-meanwhile");
  });
});

async function hashAt(cost: number, password: string) {
  const { hashPassword } = await import("../../src/modules/access/passwords.logic.ts");
  return hashPassword(password, cost);
}
