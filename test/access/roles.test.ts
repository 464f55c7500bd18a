import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { can } from "../../src/modules/access/grant-check.logic.ts";
import type { Principal } from "../../src/modules/access/principal.types.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  CREATE_FLAG,
  createProject,
  eventsOf,
  gqlOk,
  PROJECT_ROLE,
  userWithPat,
} from "../helpers/builders.ts";

let t: TestApp;
let gardener: { id: number; token: string };
let owner: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApp();
  await createProject(t, "other", { name: "Other" });
  gardener = await userWithPat(t, "gardener", "Viewer");
  owner = await userWithPat(t, "olive", "Viewer");
  await addProjectMember(t, "default", owner.id, PROJECT_ROLE.owner);
});
afterAll(() => t.close());

/** The caller's createFeature answer (the test looks at its errors). */
const createFlagAs = (project: string, name: string, token: string) =>
  t.gql(CREATE_FLAG, { p: project, input: { name } }, token);

describe("roles", () => {
  it("lists the predefined roles with their permissions", async () => {
    const res = await t.rest("GET", "/api/admin/roles");
    expect(res.status).toBe(200);
    const roles = res.body.roles as { name: string; type: string; permissions: { name: string }[] }[];
    expect(roles.map((r) => [r.name, r.type])).toEqual([
      ["Admin", "root"],
      ["Editor", "root"],
      ["Viewer", "root"],
      ["Owner", "project"],
      ["Member", "project"],
    ]);
    expect(roles[0]?.permissions).toEqual([{ name: "ADMIN", environment: null }]);
    expect(roles[2]?.permissions).toEqual([]);
    expect(roles[4]?.permissions.map((p) => p.name)).toContain("UPDATE_FEATURE_ENVIRONMENT");
    expect(roles[4]?.permissions.map((p) => p.name)).not.toContain("UPDATE_PROJECT");
  });

  let roleId = 0;
  it("a custom role's permissions apply in the projects it is given in, and nowhere else", async () => {
    const created = await t.rest("POST", "/api/admin/roles", {
      name: "Flag gardener",
      description: "Plants flags",
      permissions: [
        { name: "CREATE_FEATURE" },
        { name: "UPDATE_FEATURE_ENVIRONMENT", environment: "development" },
      ],
    });
    expect(created.status).toBe(201);
    roleId = created.body.id;
    expect(created.body).toMatchObject({
      type: "custom",
      permissions: [
        { name: "CREATE_FEATURE", environment: null },
        { name: "UPDATE_FEATURE_ENVIRONMENT", environment: "development" },
      ],
    });
    expect((await createFlagAs("default", "garden-1", gardener.token)).errors?.[0]?.extensions?.code).toBe(
      "FORBIDDEN",
    );
    await addProjectMember(t, "default", gardener.id, roleId);
    expect((await createFlagAs("default", "garden-1", gardener.token)).errors).toBeUndefined();
    const elsewhere = await createFlagAs("other", "garden-2", gardener.token);
    expect(elsewhere.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["CREATE_FEATURE"],
    });
    const me = await t.gql<{ viewer: { permissions: unknown[] } }>(
      `{ viewer { permissions { permission project environment } } }`,
      {},
      gardener.token,
    );
    expect(me.data?.viewer.permissions).toEqual([
      { permission: "CREATE_FEATURE", project: "default", environment: null },
      { permission: "UPDATE_FEATURE_ENVIRONMENT", project: "default", environment: "development" },
    ]);
  });

  it("a project Owner manages its members; a Member cannot", async () => {
    const addMember = (project: string, userId: number, token: string) =>
      t.gql(
        `mutation($p: String!, $u: Int!, $r: Int!) { addProjectMember(project: $p, userId: $u, roleId: $r) }`,
        { p: project, u: userId, r: PROJECT_ROLE.member },
        token,
      );
    expect((await addMember("default", gardener.id, owner.token)).errors).toBeUndefined();
    const byMember = await addMember("default", owner.id, gardener.token);
    expect(byMember.errors?.[0]?.extensions?.permissions).toEqual(["UPDATE_PROJECT"]);
    const inOther = await addMember("other", gardener.id, owner.token);
    expect(inOther.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("records role-created, role-updated (only when something changed) and role-deleted", async () => {
    const body = {
      name: "Flag gardener",
      description: "Plants and waters flags",
      permissions: [{ name: "CREATE_FEATURE" }],
    };
    expect((await t.rest("PUT", `/api/admin/roles/${roleId}`, body)).status).toBe(200);
    expect((await t.rest("PUT", `/api/admin/roles/${roleId}`, body)).status).toBe(200);
    const inUse = await t.rest("DELETE", `/api/admin/roles/${roleId}`);
    expect(inUse.status).toBe(409);
    await gqlOk(
      t,
      `mutation($u: Int!, $r: Int!) { removeProjectMember(project: "default", userId: $u, roleId: $r) }`,
      { u: gardener.id, r: roleId },
    );
    expect((await t.rest("DELETE", `/api/admin/roles/${roleId}`)).status).toBe(200);
    const nodes = await eventsOf(t, ["role-created", "role-updated", "role-deleted"]);
    expect(nodes.map((n) => n.type)).toEqual(["role-created", "role-updated", "role-deleted"]);
    expect(nodes[1]).toMatchObject({
      data: {
        description: "Plants and waters flags",
        permissions: [{ name: "CREATE_FEATURE", environment: null }],
      },
      preData: { description: "Plants flags" },
    });
  });

  it("refuses changes to predefined roles, unknown permissions and misplaced environments", async () => {
    expect((await t.rest("PUT", "/api/admin/roles/2", { name: "Editor", permissions: [] })).status).toBe(403);
    expect((await t.rest("DELETE", "/api/admin/roles/1")).status).toBe(403);
    expect(
      (await t.rest("POST", "/api/admin/roles", { name: "x", permissions: [{ name: "FLY" }] })).status,
    ).toBe(400);
    const envOnRoot = { name: "y", permissions: [{ name: "CREATE_FEATURE", environment: "development" }] };
    expect((await t.rest("POST", "/api/admin/roles", envOnRoot)).status).toBe(400);
    expect((await t.rest("POST", "/api/admin/roles", { name: "Admin" })).status).toBe(409);
  });
});

describe("project roles cannot escalate to root", () => {
  it("refuses root permissions in a project role, and accepts them in a root-custom role", async () => {
    const res = await t.rest("POST", "/api/admin/roles", {
      name: "Sneaky owner",
      permissions: [{ name: "CREATE_FEATURE" }, { name: "ADMIN" }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: "ValidationError" });
    expect(res.body.message).toContain("permissions.1.name");
    const update = await t.rest("POST", "/api/admin/roles", {
      name: "Plain project role",
      permissions: [{ name: "CREATE_FEATURE" }],
    });
    expect(update.status).toBe(201);
    const withAdmin = await t.rest("PUT", `/api/admin/roles/${update.body.id}`, {
      name: "Plain project role",
      permissions: [{ name: "CREATE_FEATURE" }, { name: "CREATE_PROJECT" }],
    });
    expect(withAdmin.status).toBe(400);
    const rootCustom = await t.rest("POST", "/api/admin/roles", {
      name: "Project maker",
      type: "root-custom",
      permissions: [{ name: "CREATE_PROJECT" }],
    });
    expect(rootCustom.status).toBe(201);
  });

  it("a Viewer owning a project cannot use a project role holding ADMIN to become Admin", async () => {
    const mallory = await userWithPat(t, "mallory", "Viewer");
    await addProjectMember(t, "default", mallory.id, PROJECT_ROLE.owner);
    // Direct write: such a role can no longer be made through the API; rows written before that
    // rule (the migration removes them, but a restored backup may hold them) must grant nothing.
    const role = await t.database.prisma.role.create({
      data: {
        name: "Legacy everything",
        type: "custom",
        permissions: { create: [{ permissionName: "ADMIN" }, { permissionName: "CREATE_PROJECT" }] },
      },
    });
    const given = await t.gql(
      `mutation($u: Int!, $r: Int!) { addProjectMember(project: "default", userId: $u, roleId: $r) }`,
      { u: mallory.id, r: role.id },
      mallory.token,
    );
    // She cannot give it herself (she does not hold ADMIN, D-12); an admin still may, and then
    // it must grant nothing beyond the project.
    expect(given.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["ADMIN", "CREATE_PROJECT"],
    });
    await addProjectMember(t, "default", mallory.id, role.id);
    const rootActions: [string, string, unknown][] = [
      ["POST", "/api/admin/api-tokens", { tokenName: "mine", type: "admin" }],
      ["PUT", `/api/admin/user-admin/${mallory.id}`, { rootRole: "Admin" }],
      ["POST", "/api/admin/projects", { id: "mallorys", name: "Mine" }],
    ];
    for (const [method, path, body] of rootActions) {
      expect((await t.rest(method, path, body, mallory.token)).status, `${method} ${path}`).toBe(403);
    }
    // ...while the project permissions of the same role still work in its project
    expect((await createFlagAs("default", "mallory-flag", mallory.token)).errors).toBeUndefined();
    expect((await createFlagAs("other", "mallory-flag-2", mallory.token)).errors?.[0]?.extensions?.code).toBe(
      "FORBIDDEN",
    );
  });
});

describe("can(): scoping by project and environment", () => {
  const principal = (grants: Principal["grants"]): Principal => ({
    kind: "user",
    via: "pat",
    name: "p",
    userId: 1,
    tokenId: null,
    rootRole: "Viewer",
    projects: ["*"],
    environment: "*",
    grants,
  });
  const envGrant = principal([
    { permission: "UPDATE_FEATURE_ENVIRONMENT", project: "default", environment: "development" },
  ]);

  it("an environment-scoped grant passes only in that project and environment", () => {
    expect(
      can(envGrant, {
        permission: "UPDATE_FEATURE_ENVIRONMENT",
        project: "default",
        environment: "development",
      }),
    ).toBe(true);
    expect(
      can(envGrant, {
        permission: "UPDATE_FEATURE_ENVIRONMENT",
        project: "default",
        environment: "production",
      }),
    ).toBe(false);
    expect(
      can(envGrant, {
        permission: "UPDATE_FEATURE_ENVIRONMENT",
        project: "other",
        environment: "development",
      }),
    ).toBe(false);
    expect(can(envGrant, { permission: "UPDATE_FEATURE_ENVIRONMENT" })).toBe(false);
    expect(can(envGrant, { permission: "CREATE_FEATURE", project: "default" })).toBe(false);
  });

  it("a root permission held for one project covers nothing", () => {
    const scopedAdmin = principal([{ permission: "ADMIN", project: "default", environment: null }]);
    expect(can(scopedAdmin, { permission: "CREATE_FEATURE", project: "default" })).toBe(false);
    expect(can(scopedAdmin, { permission: "ADMIN" })).toBe(false);
    const scopedRoot = principal([{ permission: "CREATE_PROJECT", project: "default", environment: null }]);
    expect(can(scopedRoot, { permission: "CREATE_PROJECT" })).toBe(false);
  });

  it("ADMIN passes everything; unscoped grants pass everywhere", () => {
    expect(
      can(principal([{ permission: "ADMIN", project: null, environment: null }]), {
        permission: "DELETE_PROJECT",
        project: "x",
      }),
    ).toBe(true);
    const editorLike = principal([
      { permission: "UPDATE_FEATURE_STRATEGY", project: null, environment: null },
    ]);
    expect(
      can(editorLike, { permission: "UPDATE_FEATURE_STRATEGY", project: "any", environment: "production" }),
    ).toBe(true);
  });
});
