import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { configure, createFlag, createUser, propose, setState, type TestUser } from "./fixtures.ts";

let t: TestApp;
let author: TestUser;
let reviewer: TestUser;
let devReviewer: TestUser;
let skipper: TestUser;

/** A project role holding `permissions` in one environment, given to `user` in project default. */
async function grant(user: TestUser, role: string, permissions: string[], environment: string) {
  const db = t.database.prisma;
  const created = await db.role.create({
    data: {
      name: role,
      type: "custom",
      permissions: {
        create: permissions.map((permissionName) => ({ permissionName, environmentName: environment })),
      },
    },
  });
  await db.projectMember.create({ data: { userId: user.id, projectId: "default", roleId: created.id } });
}

beforeAll(async () => {
  t = await createTestApp();
  author = await createUser(t, "author", "Editor");
  reviewer = await createUser(t, "reviewer", "Viewer");
  devReviewer = await createUser(t, "dev-reviewer", "Viewer");
  skipper = await createUser(t, "skipper", "Editor");
  await grant(author, "Author reviewer", ["APPROVE_CHANGE_REQUEST"], "production");
  await grant(
    reviewer,
    "Production reviewer",
    ["APPROVE_CHANGE_REQUEST", "APPLY_CHANGE_REQUEST"],
    "production",
  );
  await grant(devReviewer, "Development reviewer", ["APPROVE_CHANGE_REQUEST"], "development");
  await grant(skipper, "Skipper", ["SKIP_CHANGE_REQUEST"], "production");
  await createFlag(t, "reviewed");
  await configure(t, "production", 1);
});
afterAll(() => t.close());

describe("reviewers with project roles", () => {
  it("the author cannot approve their own request; a reviewer in that environment can, and can apply", async () => {
    const draft = await propose(
      t,
      "production",
      { action: "updateEnabled", feature: "reviewed", payload: { enabled: true } },
      author.token,
    );
    const id = draft.body.id as number;
    await setState(t, id, { state: "In review" }, author.token);
    const own = await setState(t, id, { state: "Approved" }, author.token);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/author/);
    const elsewhere = await setState(t, id, { state: "Approved" }, devReviewer.token);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.permissions).toEqual(["APPROVE_CHANGE_REQUEST"]);
    const approved = await setState(t, id, { state: "Approved" }, reviewer.token);
    expect(approved.body.state).toBe("Approved");
    const applied = await setState(t, id, { state: "Applied" }, reviewer.token);
    expect(applied.body.state).toBe("Applied");
  });

  it("SKIP_CHANGE_REQUEST lets a user change a protected environment directly", async () => {
    await createFlag(t, "skipped");
    const refused = await t.rest(
      "POST",
      "/api/admin/projects/default/features/skipped/environments/production/on",
      undefined,
      author.token,
    );
    expect(refused.status).toBe(403);
    const direct = await t.rest(
      "POST",
      "/api/admin/projects/default/features/skipped/environments/production/on",
      undefined,
      skipper.token,
    );
    expect(direct.status).toBe(200);
  });
});
