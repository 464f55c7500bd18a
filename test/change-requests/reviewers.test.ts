import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  configureChangeRequests,
  createFlag,
  createRole,
  type TestUser,
  turnOnOverRest,
  userWithPat,
} from "../helpers/builders.ts";
import { enableChange, propose, setState } from "./fixtures.ts";

let t: TestApp;
let author: TestUser;
let reviewer: TestUser;
let devReviewer: TestUser;
let skipper: TestUser;

/** A project role holding `permissions` in one environment, given to `user` in project default. */
async function grant(user: TestUser, role: string, permissions: string[], environment: string) {
  const roleId = await createRole(
    t,
    role,
    permissions.map((name) => ({ name, environment })),
  );
  await addProjectMember(t, "default", user.id, roleId);
}

beforeAll(async () => {
  t = await createTestApp();
  author = await userWithPat(t, "author", "Editor");
  reviewer = await userWithPat(t, "reviewer", "Viewer");
  devReviewer = await userWithPat(t, "dev-reviewer", "Viewer");
  skipper = await userWithPat(t, "skipper", "Editor");
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
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

describe("reviewers with project roles", () => {
  it("the author cannot approve their own request; a reviewer in that environment can, and can apply", async () => {
    const draft = await propose(t, "production", enableChange("reviewed"), author.token);
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
    expect((await turnOnOverRest(t, "skipped", "production", author.token)).status).toBe(403);
    expect((await turnOnOverRest(t, "skipped", "production", skipper.token)).status).toBe(200);
  });
});
