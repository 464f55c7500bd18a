import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  apiToken,
  changeRequestConfig,
  configureChangeRequests,
  createFlag,
  eventsOf,
  PROJECT_ROLE,
  type TestUser,
  turnOnOverRest,
  userWithPat,
} from "../helpers/builders.ts";
import { enableChange, propose, setState } from "./fixtures.ts";

let t: TestApp;
let editor: TestUser;
let owner: TestUser;

/** Production's change request configuration, set as the caller of `token`; the REST answer. */
const putConfig = (body: Record<string, unknown>, token?: string) =>
  t.rest("PUT", "/api/admin/projects/default/environments/production/change-requests/config", body, token);

const adminToken = (name: string) => apiToken(t, "admin", "*", ["*"], name);

beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "eddie", "Editor");
  owner = await userWithPat(t, "olga", "Viewer");
  await addProjectMember(t, "default", owner.id, PROJECT_ROLE.owner);
  await createFlag(t, "guarded");
  await configureChangeRequests(t, "production", 2);
});
afterAll(() => t.close());

describe("turning review off is itself protected", () => {
  it("an Editor or a project Owner cannot switch change requests off or lower the approvals", async () => {
    for (const who of [editor, owner]) {
      const off = await putConfig({ changeRequestsEnabled: false }, who.token);
      expect(off.status).toBe(403);
      expect(off.body).toMatchObject({ name: "NoAccessError" });
      expect(off.body.message).toContain('"ADMIN"');
      const fewer = await putConfig({ changeRequestsEnabled: true, requiredApprovals: 1 }, who.token);
      expect(fewer.status).toBe(403);
    }
    expect(await changeRequestConfig(t, "production")).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 2,
    });
    const direct = await turnOnOverRest(t, "guarded", "production", editor.token);
    expect(direct.status).toBe(403);
  });

  it("an Editor may raise the protection; an Admin may lower it, and each change is an event", async () => {
    const before = (await eventsOf(t, ["change-request-configuration-updated"])).length;
    const more = await putConfig({ changeRequestsEnabled: true, requiredApprovals: 3 }, editor.token);
    expect(more.status).toBe(204);
    const off = await putConfig({ changeRequestsEnabled: false });
    expect(off.status).toBe(204);
    const events = await eventsOf(t, ["change-request-configuration-updated"]);
    expect(events.length).toBe(before + 2);
    expect(events.at(-1)).toMatchObject({
      environment: "production",
      data: { changeRequestsEnabled: false, requiredApprovals: null },
      preData: { changeRequestsEnabled: true, requiredApprovals: 3 },
    });
    await configureChangeRequests(t, "production", 2);
  });

  it("removing a protected environment from the project (wiping its flag state) needs the skip permission", async () => {
    const res = await t.gql(
      `mutation { disableProjectEnvironment(project: "default", environment: "production") { id } }`,
      {},
      editor.token,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: "FORBIDDEN",
      permissions: ["SKIP_CHANGE_REQUEST"],
    });
    const state = await t.database.prisma.featureEnvironment.findFirst({
      where: { featureName: "guarded", environmentName: "production" },
    });
    expect(state).not.toBeNull();
  });
});

describe("an API token is an author too", () => {
  it("an admin token cannot approve its own request; another admin token counts as another approver", async () => {
    const scriptA = await adminToken("script-a");
    const scriptB = await adminToken("script-b");
    const draft = await propose(t, "production", enableChange("guarded"), scriptA);
    expect(draft.status).toBe(200);
    const id = draft.body.id as number;
    // B is not the author of A's draft: it cannot submit it
    expect((await setState(t, id, { state: "In review" }, scriptB)).status).toBe(403);
    expect((await setState(t, id, { state: "In review" }, scriptA)).status).toBe(200);
    const own = await setState(t, id, { state: "Approved" }, scriptA);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/author/);
    const byB = await setState(t, id, { state: "Approved" }, scriptB);
    expect(byB.status).toBe(200);
    expect(byB.body.state).toBe("In review");
    const again = await setState(t, id, { state: "Approved" }, scriptB);
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/already approved/);
    const byAdminUser = await setState(t, id, { state: "Approved" });
    expect(byAdminUser.status).toBe(200);
    expect(byAdminUser.body.state).toBe("Approved");
  });

  it("each admin token has its own draft and its own list of open requests", async () => {
    const scriptC = await adminToken("script-c");
    const scriptD = await adminToken("script-d");
    const change = enableChange("guarded", false);
    const c = await propose(t, "production", change, scriptC);
    const d = await propose(t, "production", change, scriptD);
    expect(c.body.id).not.toBe(d.body.id);
    const open = await t.rest("GET", "/api/admin/projects/default/change-requests/open", undefined, scriptC);
    expect((open.body as { id: number }[]).map((r) => r.id)).toEqual([c.body.id]);
  });
});
