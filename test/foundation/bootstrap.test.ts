import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../../src/bootstrap.ts";
import { loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/database.ts";
import { resolveToken } from "../../src/modules/access/credentials.write.ts";
import { verifyPassword } from "../../src/modules/access/passwords.logic.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { createTestDatabase } from "../helpers/database.ts";

// A database bootstrapped before (a restart's); the first start gets one of its own, never
// bootstrapped, since the other tests bootstrap this one.
let db: Database;
beforeAll(async () => {
  db = await createTestDatabase(undefined, { bootstrapped: true });
});
afterAll(() => db.close());
const logger = createLogger("silent");

describe("first-start bootstrap", () => {
  it("generates an admin password and token once when none are configured", async () => {
    const fresh = await createTestDatabase();
    try {
      const config = loadConfig({ INIT_ADMIN_USERNAME: "root-admin" });
      const first = await bootstrap(fresh.prisma, config, logger);
      expect(first.generatedAdminPassword).toMatch(/^.{20,}$/);
      expect(first.generatedAdminToken).toMatch(/^\*:\*\.[0-9a-f]{56}$/);

      const admin = await fresh.prisma.user.findUniqueOrThrow({ where: { username: "root-admin" } });
      expect(admin.rootRole).toBe("Admin");
      expect(await verifyPassword(first.generatedAdminPassword!, admin.passwordHash!)).toBe(true);
      const stored = await fresh.prisma.apiToken.findMany();
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(first.generatedAdminToken!.slice(6));
      expect(await resolveToken(fresh.prisma, first.generatedAdminToken!)).toMatchObject({
        kind: "admin-token",
        rootRole: "Admin",
      });

      const second = await bootstrap(fresh.prisma, config, logger);
      expect(second).toEqual({});
      expect(await fresh.prisma.apiToken.count()).toBe(1);
      expect(await fresh.prisma.user.count({ where: { isService: false } })).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it("recovers admin access as the README says: a new INIT_ADMIN_API_TOKENS token is an admin's; INIT_ADMIN_PASSWORD changes no password, and says so", async () => {
    await bootstrap(db.prisma, loadConfig({}), logger); // a data folder that has been started before
    const before = await db.prisma.user.findMany({ select: { id: true, passwordHash: true } });
    const warnings: string[] = [];
    const recording = createLogger("warn", (line) => warnings.push(line));
    const recovery = "*:*.recovery-a-long-random-secret-for-the-test";
    const config = loadConfig({
      INIT_ADMIN_API_TOKENS: recovery,
      INIT_ADMIN_PASSWORD: "Another-Password-123",
    });
    await bootstrap(db.prisma, config, recording);
    expect(await resolveToken(db.prisma, recovery)).toMatchObject({ kind: "admin-token", rootRole: "Admin" });
    expect(await db.prisma.user.findMany({ select: { id: true, passwordHash: true } })).toEqual(before);
    expect(warnings.join("")).toContain("INIT_ADMIN_PASSWORD is ignored");
  });

  it("accepts INIT_ADMIN_API_TOKENS (with or without Bearer) and keeps a deleted default project deleted", async () => {
    // Direct write: the API only archives projects; an operator may still delete one in SQL, and
    // this test has only a database (bootstrap runs before any app).
    await db.prisma.projectEnvironment.deleteMany({ where: { projectId: "default" } });
    await db.prisma.project.delete({ where: { id: "default" } });
    const config = loadConfig({ INIT_ADMIN_API_TOKENS: "*:*.first-secret, *:*.second-secret" });
    expect(await bootstrap(db.prisma, config, logger)).toEqual({});
    for (const secret of ["*:*.first-secret", "*:*.second-secret"]) {
      expect(await resolveToken(db.prisma, secret)).toMatchObject({ kind: "admin-token" });
    }
    expect(await resolveToken(db.prisma, "*:*.third-secret")).toBeNull();
    expect(await db.prisma.project.findUnique({ where: { id: "default" } })).toBeNull();
  });
});
