import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  configureChangeRequests,
  createFlag,
  createRole,
  createUser,
  eventsOf,
  PROJECT_ROLE,
  type TestUser,
  turnOnOverRest,
  userWithPat,
} from "../helpers/builders.ts";

// Issue 36 point 3: granting a role never gives more than the granter holds (D-12).

let t: TestApp;
let skipInProduction: number;
let approveEverywhere: number;
let skipEverywhere: number;

const ADD_MEMBER = `mutation($p: String!, $u: Int!, $r: Int!) { addProjectMember(project: $p, userId: $u, roleId: $r) }`;

/** addProjectMember as the caller of `token`; the GraphQL answer. */
const grant = (token: string, userId: number, roleId: number, project = "default") =>
  t.gql(ADD_MEMBER, { p: project, u: userId, r: roleId }, token);

const membership = (userId: number, roleId: number) =>
  t.database.prisma.projectMember.findMany({ where: { userId, roleId, projectId: "default" } });

beforeAll(async () => {
  t = await createTestApp();
  skipInProduction = await createRole(t, "Production skipper", [
    { name: "SKIP_CHANGE_REQUEST", environment: "production" },
  ]);
  skipEverywhere = await createRole(t, "Skipper everywhere", [{ name: "SKIP_CHANGE_REQUEST" }]);
  approveEverywhere = await createRole(t, "Approver", [
    { name: "APPROVE_CHANGE_REQUEST" },
    { name: "APPLY_CHANGE_REQUEST" },
  ]);
  await createFlag(t, "guarded");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

describe("an Editor cannot hand himself the review", () => {
  let editor: TestUser;
  beforeAll(async () => {
    editor = await userWithPat(t, "eddie", "Editor");
  });

  it("a role that skips change requests is refused (FORBIDDEN), so production stays behind review", async () => {
    const before = (await eventsOf(t, ["project-user-added"])).length;
    const res = await grant(editor.token, editor.id, skipInProduction);
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["SKIP_CHANGE_REQUEST"],
    });
    expect(res.errors?.[0]?.message).toContain('"SKIP_CHANGE_REQUEST (production)"');
    expect(await membership(editor.id, skipInProduction)).toEqual([]);
    expect((await eventsOf(t, ["project-user-added"])).length).toBe(before);
    expect((await turnOnOverRest(t, "guarded", "production", editor.token)).status).toBe(403);
  });

  it("nor a role that approves, for himself or for an accomplice", async () => {
    const accomplice = await createUser(t, "acco", "Viewer");
    for (const userId of [editor.id, accomplice]) {
      const res = await grant(editor.token, userId, approveEverywhere);
      expect(res.errors?.[0]?.extensions).toMatchObject({
        code: "FORBIDDEN",
        permissions: ["APPROVE_CHANGE_REQUEST", "APPLY_CHANGE_REQUEST"],
      });
      expect(await membership(userId, approveEverywhere)).toEqual([]);
    }
  });

  it("roles made of what an Editor holds stay his to give", async () => {
    const newcomer = await createUser(t, "newcomer", "Viewer");
    const res = await grant(editor.token, newcomer, PROJECT_ROLE.owner);
    expect(res.errors).toBeUndefined();
    expect(await membership(newcomer, PROJECT_ROLE.owner)).toHaveLength(1);
  });
});

describe("a project Owner gives what an Owner holds, in his project only", () => {
  it("Member and Owner yes; an approving role no", async () => {
    const owner = await userWithPat(t, "olga", "Viewer");
    await addProjectMember(t, "default", owner.id, PROJECT_ROLE.owner);
    const helper = await createUser(t, "helper", "Viewer");
    expect((await grant(owner.token, helper, PROJECT_ROLE.member)).errors).toBeUndefined();
    const approving = await grant(owner.token, helper, approveEverywhere);
    expect(approving.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await membership(helper, approveEverywhere)).toEqual([]);
  });
});

describe("an environment-scoped permission is given only where it is held", () => {
  it("a production skipper may pass on production's skip, not skip everywhere", async () => {
    const pia = await userWithPat(t, "pia", "Editor");
    await addProjectMember(t, "default", pia.id, skipInProduction);
    const other = await createUser(t, "other", "Viewer");
    expect((await grant(pia.token, other, skipInProduction)).errors).toBeUndefined();
    const wider = await grant(pia.token, other, skipEverywhere);
    expect(wider.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["SKIP_CHANGE_REQUEST"],
    });
    expect(await membership(other, skipEverywhere)).toEqual([]);
  });
});

describe("admins hold every permission", () => {
  it("an admin gives a skipping role, and it takes effect", async () => {
    const sam = await userWithPat(t, "sam", "Editor");
    await addProjectMember(t, "default", sam.id, skipInProduction);
    expect((await turnOnOverRest(t, "guarded", "production", sam.token)).status).toBe(200);
  });
});

describe("the other grant paths are for admins only (REST)", () => {
  it("an Editor cannot make or change roles, nor give a root role", async () => {
    const eve = await userWithPat(t, "eve", "Editor");
    const refusals = [
      await t.rest(
        "POST",
        "/api/admin/roles",
        { name: "Mine", type: "custom", permissions: [{ name: "SKIP_CHANGE_REQUEST" }] },
        eve.token,
      ),
      await t.rest(
        "PUT",
        `/api/admin/roles/${skipInProduction}`,
        { name: "Production skipper", type: "custom", permissions: [{ name: "SKIP_CHANGE_REQUEST" }] },
        eve.token,
      ),
      await t.rest("PUT", `/api/admin/user-admin/${eve.id}`, { rootRole: "Admin" }, eve.token),
      await t.rest(
        "POST",
        "/api/admin/user-admin",
        { username: "sidekick", rootRole: "Admin", password: "a-Long-passw0rd!" },
        eve.token,
      ),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ name: "NoAccessError" });
    }
    const me = await t.rest("GET", "/api/admin/user", undefined, eve.token);
    expect(me.body.user.rootRole).toBe("Editor");
  });
});
