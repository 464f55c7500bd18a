import { createHash, randomUUID } from "node:crypto";
import type { Config } from "./config.ts";
import type { Db, Tx } from "./db/database.ts";
import { hashSecret, newApiTokenSecret } from "./modules/access/credentials.write.ts";
import { generatePassword, hashPassword } from "./modules/access/passwords.logic.ts";
import {
  displayName,
  PERMISSIONS,
  PREDEFINED_ROLES,
  permissionType,
} from "./modules/access/permissions.logic.ts";
import { ADMIN_TOKEN_USER_ID, SYSTEM_USER_ID } from "./shared/actor.ts";
import { openTransaction } from "./shared/direct-statements.ts";
import type { Logger } from "./shared/logger.ts";

const FEATURE_TYPES = [
  {
    id: "release",
    name: "Release",
    description: "Release feature flags are used to release new features.",
    lifetimeDays: 40,
  },
  {
    id: "experiment",
    name: "Experiment",
    description: "Experiment flags are used to test and verify multiple different versions of a feature.",
    lifetimeDays: 40,
  },
  {
    id: "operational",
    name: "Operational",
    description: "Operational flags are used to control the operational aspects of a system's behavior.",
    lifetimeDays: 7,
  },
  {
    id: "kill-switch",
    name: "Kill switch",
    description:
      "Kill switch flags are used to quickly turn on or off critical functionality in your system.",
    lifetimeDays: null,
  },
  {
    id: "permission",
    name: "Permission",
    description: "Permission flags are used to control permissions in your system.",
    lifetimeDays: null,
  },
];

/**
 * The permission catalogue and the predefined roles, kept in step with the code on every
 * start: a predefined role's permissions are exactly those listed in permissions.logic.ts.
 */
async function seedRoles(tx: Tx): Promise<void> {
  await tx.permission.createMany({
    data: Object.values(PERMISSIONS).map((name) => ({
      name,
      displayName: displayName(name),
      type: permissionType(name),
    })),
    skipDuplicates: true,
  });
  for (const role of PREDEFINED_ROLES) {
    const saved = await tx.role.upsert({
      where: { name: role.name },
      create: { name: role.name, type: role.type, description: role.description },
      update: { type: role.type, description: role.description },
    });
    await tx.rolePermission.deleteMany({
      where: { roleId: saved.id, permissionName: { notIn: [...role.permissions] } },
    });
    await tx.rolePermission.createMany({
      data: role.permissions.map((permissionName) => ({ roleId: saved.id, permissionName })),
      skipDuplicates: true,
    });
  }
}

/** Setting holding the fingerprint of the catalogue the last full bootstrap wrote. */
const SEED_SETTING = "seed";

/**
 * Fingerprint of what every start keeps in step with the code (flag types, permissions,
 * predefined roles): when the database holds the same one, that work is skipped.
 */
function seedHash(): string {
  return createHash("sha256")
    .update(
      JSON.stringify([FEATURE_TYPES, PERMISSIONS, PREDEFINED_ROLES, ADMIN_TOKEN_USER_ID, SYSTEM_USER_ID]),
    )
    .digest("hex");
}

/** True when a configured admin token is not stored yet, or no token exists and one must be made. */
async function tokensToCreate(db: Db, config: Config): Promise<boolean> {
  const wanted = config.initAdmin.apiTokens.map(hashSecret);
  if (wanted.length === 0) return (await db.apiToken.count()) === 0;
  const stored = await db.apiToken.count({ where: { secretHash: { in: wanted } } });
  return stored < new Set(wanted).size;
}

export type BootstrapResult = {
  /** Shown once on the console; never stored in clear. */
  generatedAdminPassword?: string;
  generatedAdminToken?: string;
};

/**
 * Idempotent start-up seeding. On the first start: flag types, the `default` project with
 * `development` and `production`, and the admin user. On every start: INIT_ADMIN_API_TOKENS
 * are accepted (stored hashed); with none configured and no token at all, one is generated.
 */
export async function bootstrap(db: Db, config: Config, logger: Logger): Promise<BootstrapResult> {
  const result: BootstrapResult = {};
  const settings = await db.setting.findMany({ where: { name: { in: ["bootstrapped", SEED_SETTING] } } });
  const needsAdmin = !settings.some((s) => s.name === "bootstrapped");
  if (!needsAdmin && config.initAdmin.password) {
    // Said, not silently skipped: an operator may expect it to reset a lost password.
    logger.warn(
      "INIT_ADMIN_PASSWORD is ignored: it only sets the password of the admin the first start creates (README, Lost admin password)",
    );
  }
  const seed = settings.find((s) => s.name === SEED_SETTING)?.content as { hash?: string } | undefined;
  // A restart of the same build on a seeded database: only the configured tokens may be new.
  if (!needsAdmin && seed?.hash === seedHash() && !(await tokensToCreate(db, config))) return result;
  // Hashing is deliberately slow: do it before the transaction, only if an admin may be needed.
  const password = needsAdmin ? (config.initAdmin.password ?? generatePassword()) : null;
  const passwordHash = password ? await hashPassword(password, config.auth.passwordHashCost) : null;
  await openTransaction(
    db,
    async (tx) => {
      for (const type of FEATURE_TYPES) {
        await tx.featureType.upsert({ where: { id: type.id }, create: type, update: {} });
      }
      await seedRoles(tx);
      await tx.setting.upsert({
        where: { name: "instanceInfo" },
        create: { name: "instanceInfo", content: { id: randomUUID() } },
        update: {},
      });
      for (const [id, username] of [
        [ADMIN_TOKEN_USER_ID, "admin-token"],
        [SYSTEM_USER_ID, "system"],
      ] as const) {
        await tx.user.upsert({
          where: { id },
          create: {
            id,
            username,
            name: username === "system" ? "Vexil System" : "Admin API token",
            isService: true,
            rootRole: "Admin",
          },
          update: {},
        });
      }
      const first = !(await tx.setting.findUnique({ where: { name: "bootstrapped" } }));
      if (first) {
        for (const env of [
          { name: "development", type: "development", sortOrder: 100 },
          { name: "production", type: "production", sortOrder: 200 },
        ]) {
          await tx.environment.upsert({ where: { name: env.name }, create: env, update: {} });
        }
        await tx.project.upsert({
          where: { id: "default" },
          create: {
            id: "default",
            name: "Default",
            description: "Default project",
            environments: { create: [{ environmentName: "development" }, { environmentName: "production" }] },
          },
          update: {},
        });
        const admins = await tx.user.count({
          where: { rootRole: "Admin", isService: false, deletedAt: null },
        });
        if (admins === 0 && password && passwordHash) {
          if (!config.initAdmin.password) result.generatedAdminPassword = password;
          await tx.user.create({
            data: {
              username: config.initAdmin.username,
              name: config.initAdmin.username,
              rootRole: "Admin",
              passwordHash,
            },
          });
        }
        await tx.setting.create({
          data: { name: "bootstrapped", content: { at: new Date().toISOString() } },
        });
      }
      for (const secret of config.initAdmin.apiTokens) {
        const secretHash = hashSecret(secret);
        await tx.apiToken.upsert({
          where: { secretHash },
          create: {
            tokenName: "admin-token",
            type: "admin",
            environment: "*",
            projects: ["*"],
            secretHash,
            displayPrefix: secret.slice(0, 8),
          },
          update: {},
        });
      }
      if (config.initAdmin.apiTokens.length === 0 && (await tx.apiToken.count()) === 0) {
        const secret = newApiTokenSecret("*", "*");
        await tx.apiToken.create({
          data: {
            tokenName: "admin-token",
            type: "admin",
            environment: "*",
            projects: ["*"],
            secretHash: hashSecret(secret),
            displayPrefix: secret.slice(0, 8),
          },
        });
        result.generatedAdminToken = secret;
      }
      await tx.setting.upsert({
        where: { name: SEED_SETTING },
        create: { name: SEED_SETTING, content: { hash: seedHash() } },
        update: { content: { hash: seedHash() } },
      });
    },
    { timeout: 30_000 },
  );
  if (result.generatedAdminPassword) {
    logger.info("created the admin user; its password is printed once on stdout", {
      username: config.initAdmin.username,
    });
  }
  return result;
}
