import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  archiveFlag,
  configureChangeRequests,
  createFlag,
  deleteStrategy,
  eventsOf,
  flagEnabledIn,
  gqlOk,
  type TestUser,
  updateStrategy,
  userWithPat,
} from "../helpers/builders.ts";
import { approved, enableChange, propose, setState, submitted } from "./fixtures.ts";

let t: TestApp;
let author: TestUser;
let alice: TestUser;
let bob: TestUser;
const enableCheckout = enableChange("checkout");

beforeAll(async () => {
  t = await createTestApp();
  author = await userWithPat(t, "author", "Editor");
  alice = await userWithPat(t, "alice", "Admin");
  bob = await userWithPat(t, "bob", "Admin");
  await createFlag(t, "checkout");
  await configureChangeRequests(t, "production", 2);
});
afterAll(() => t.close());

/** The events of these types that name change request `id` (in their data), oldest first. */
const eventsOfRequest = async (types: string[], id: number) =>
  (await eventsOf(t, types)).filter(
    (e) => (e.data as { changeRequestId?: number } | null)?.changeRequestId === id,
  );

/** Sent to review by the author, in production. */
const inReview = (change: unknown) => submitted(t, "production", change, author);
/** ...and approved by alice and bob. */
const approvedByBoth = (change: unknown) => approved(t, "production", change, author, [alice, bob]);

describe("the review path Draft → In review → Approved → Applied", () => {
  // One request's story, each step needing the one before.
  it("sent to review by its author, approved by two, re-approved after an edit, applied with APPLY_CHANGE_REQUEST", async () => {
    await createFlag(t, "reviewed");
    let id: number;
    // only the author sends a Draft to review, and only a Draft
    {
      const draft = await propose(t, "production", enableChange("reviewed"), author.token);
      id = draft.body.id;
      expect((await setState(t, id, { state: "Approved" }, alice.token)).status).toBe(403);
      expect((await setState(t, id, { state: "In review" }, alice.token)).status).toBe(403);
      const res = await setState(t, id, { state: "In review", comment: "Please look" }, author.token);
      expect(res.status).toBe(200);
      expect(res.body.state).toBe("In review");
      expect(res.body.comments).toEqual([
        expect.objectContaining({
          text: "Please look",
          createdBy: expect.objectContaining({ username: "author" }),
        }),
      ]);
      expect(await eventsOfRequest(["change-request-sent-to-review"], id)).toHaveLength(1);
    }
    // approvals need APPROVE_CHANGE_REQUEST, count once per user, and approve at minApprovals
    {
      const noPermission = await setState(t, id, { state: "Approved" }, author.token);
      expect(noPermission.status).toBe(403);
      expect(noPermission.body.name).toBe("NoAccessError");
      const first = await setState(t, id, { state: "Approved" }, alice.token);
      expect(first.body).toMatchObject({
        state: "In review",
        approvals: [{ createdBy: { username: "alice" } }],
      });
      expect((await setState(t, id, { state: "Approved" }, alice.token)).status).toBe(403);
      const second = await setState(t, id, { state: "Approved" }, bob.token);
      expect(second.body.state).toBe("Approved");
      expect(second.body.approvals).toHaveLength(2);
      expect(await eventsOfRequest(["change-request-approval-added"], id)).toHaveLength(2);
      expect(await eventsOfRequest(["change-request-approved"], id)).toHaveLength(1);
    }
    // an edit after approval revokes the approvals and sends it back to review
    {
      const cr = await t.rest("GET", `/api/admin/projects/default/change-requests/${id}`);
      const changeId = cr.body.features[0].changes[0].id;
      const edited = await t.rest(
        "PUT",
        `/api/admin/projects/default/change-requests/${id}/changes/${changeId}`,
        { enabled: true, shouldActivateDisabledStrategies: false },
        author.token,
      );
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ state: "In review", approvals: [] });
      await setState(t, id, { state: "Approved" }, alice.token);
      expect((await setState(t, id, { state: "Approved" }, bob.token)).body.state).toBe("Approved");
    }
    // applying needs APPLY_CHANGE_REQUEST; it runs the changes grouped under the request
    {
      expect((await setState(t, id, { state: "Applied" }, author.token)).status).toBe(403);
      expect(await flagEnabledIn(t, "reviewed", "production")).toBe(false);
      const res = await setState(t, id, { state: "Applied" }, alice.token);
      expect(res.status).toBe(200);
      expect(res.body.state).toBe("Applied");
      expect(res.body.features[0]).not.toHaveProperty("defaultChange");
      expect(await flagEnabledIn(t, "reviewed", "production")).toBe(true);
      const [enabled] = (await eventsOf(t, ["feature-environment-enabled"])).filter(
        (e) => e.featureName === "reviewed",
      );
      expect(enabled).toMatchObject({
        featureName: "reviewed",
        environment: "production",
        groupType: "change-request",
        groupId: String(id),
        createdBy: "alice",
      });
      const [applied] = await eventsOfRequest(["change-request-applied"], id);
      expect(applied).toMatchObject({ data: { changeRequestId: id }, groupId: String(id) });
      expect((await setState(t, id, { state: "Applied" }, alice.token)).status).toBe(403);
      expect(
        (await t.rest("PUT", `/api/admin/projects/default/change-requests/${id}/changes/1`, {}, author.token))
          .status,
      ).toBe(403);
    }
  });

  it("an Admin may approve their own request; minApprovals is fixed when the request is created", async () => {
    await createFlag(t, "own");
    const draft = await propose(t, "production", enableChange("own"), alice.token);
    await configureChangeRequests(t, "production", 1);
    await setState(t, draft.body.id, { state: "In review" }, alice.token);
    const res = await setState(t, draft.body.id, { state: "Approved" }, alice.token);
    expect(res.body).toMatchObject({ minApprovals: 2, state: "In review" });
    await configureChangeRequests(t, "production", 2);
  });

  it("with no approvals required, sending to review approves", async () => {
    await configureChangeRequests(t, "development", 0);
    const draft = await propose(t, "development", enableCheckout, author.token);
    const res = await setState(t, draft.body.id, { state: "In review" }, author.token);
    expect(res.body).toMatchObject({ state: "Approved", minApprovals: 0 });
  });
});

describe("an applied request's flags as they were before it", () => {
  const stateBefore = async (id: number) => {
    const data = await gqlOk<any>(
      t,
      `query($id: Int!) { changeRequest(id: $id) { state features { name
        stateBeforeApply { name environments { name enabled strategies { name parameters } } } } } }`,
      { id },
    );
    return data.changeRequest.features[0].stateBeforeApply;
  };

  it("null while open; once applied, the flag just before the apply, whatever changed since", async () => {
    await createFlag(t, "before-apply");
    await addStrategy(t, "before-apply", { name: "default" }, "production");
    const id = await approvedByBoth(enableChange("before-apply"));
    expect(await stateBefore(id)).toBeNull();
    expect((await setState(t, id, { state: "Applied" }, alice.token)).status).toBe(200);
    // Changed again afterwards (off, through another request): "before" stays the pre-apply state.
    const off = await approvedByBoth(enableChange("before-apply", false));
    expect((await setState(t, off, { state: "Applied" }, alice.token)).status).toBe(200);
    const production = (await stateBefore(id)).environments.find(
      (e: { name: string }) => e.name === "production",
    );
    expect(production).toEqual({
      name: "production",
      enabled: false,
      strategies: [{ name: "default", parameters: {} }],
    });
    const second = (await stateBefore(off)).environments.find(
      (e: { name: string }) => e.name === "production",
    );
    expect(second.enabled).toBe(true);
  });

  it("a rejected request has none", async () => {
    await createFlag(t, "never-applied");
    const id = await inReview(enableChange("never-applied"));
    expect((await setState(t, id, { state: "Rejected" }, alice.token)).status).toBe(200);
    expect(await stateBefore(id)).toBeNull();
  });
});

describe("rejecting, cancelling, commenting", () => {
  it("a reviewer rejects with a comment", async () => {
    const id = await inReview(enableCheckout);
    expect((await setState(t, id, { state: "Rejected" }, author.token)).status).toBe(403);
    const res = await setState(t, id, { state: "Rejected", comment: "Not now" }, bob.token);
    expect(res.body).toMatchObject({
      state: "Rejected",
      rejections: [{ createdBy: { username: "bob" } }],
      comments: [{ text: "Not now" }],
    });
    expect(await eventsOfRequest(["change-request-rejected"], id)).toHaveLength(1);
    expect((await setState(t, id, { state: "Approved" }, alice.token)).status).toBe(403);
  });

  it("the author (or an Admin) cancels", async () => {
    const id = await inReview(enableCheckout);
    const other = await userWithPat(t, "other", "Editor");
    expect((await setState(t, id, { state: "Cancelled" }, other.token)).status).toBe(403);
    const res = await setState(t, id, { state: "Cancelled" }, author.token);
    expect(res.body.state).toBe("Cancelled");
    expect(await eventsOfRequest(["change-request-cancelled"], id)).toHaveLength(1);
  });

  it("comments are accepted in any state", async () => {
    const id = await inReview(enableCheckout);
    await setState(t, id, { state: "Cancelled" }, author.token);
    const comment = (body: { text: string }) =>
      t.rest("POST", `/api/admin/projects/default/change-requests/${id}/comments`, body, bob.token);
    const res = await comment({ text: "For the record" });
    expect(res.status).toBe(201);
    expect(res.body.comments.at(-1)).toMatchObject({
      text: "For the record",
      createdBy: { username: "bob" },
    });
    const empty = await comment({ text: " " });
    expect(empty.status).toBe(400);
    const tooLong = await comment({ text: "x".repeat(10_001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/text/);
  });

  it("unknown states and requests of other projects are refused", async () => {
    const id = await inReview(enableCheckout);
    expect((await setState(t, id, { state: "Draft" }, author.token)).status).toBe(400);
    expect(
      (
        await t.rest(
          "PUT",
          `/api/admin/projects/other/change-requests/${id}/state`,
          { state: "Cancelled" },
          author.token,
        )
      ).status,
    ).toBe(404);
    await setState(t, id, { state: "Cancelled" }, author.token);
  });
});

describe("conflicts", () => {
  it("a strategy changed since the change was made is a conflict; applying is refused with 409", async () => {
    await createFlag(t, "striped");
    const strategy = await addStrategy(t, "striped", { name: "default" }, "production");
    const id = await approvedByBoth({
      action: "updateStrategy",
      feature: "striped",
      payload: { id: strategy.id, title: "Mine" },
    });
    await updateStrategy(t, "striped", strategy.id, { title: "Theirs" }, "production");
    const shown = await t.rest("GET", `/api/admin/projects/default/change-requests/${id}`);
    expect(shown.body.features[0].conflict).toMatch(/changed since/);
    expect(shown.body.features[0].changes[0].conflict).toMatch(/changed since/);
    const res = await setState(t, id, { state: "Applied" }, alice.token);
    expect(res.status).toBe(409);
    expect(res.body.details[0].message).toMatch(/updateStrategy on "striped".*changed since/);
    expect(await eventsOfRequest(["change-request-applied"], id)).toEqual([]);
  });

  it("a deleted strategy and an archived flag are conflicts", async () => {
    await createFlag(t, "doomed");
    const strategy = await addStrategy(t, "doomed", { name: "default" }, "production");
    const id = await approvedByBoth([
      { action: "deleteStrategy", feature: "doomed", payload: { id: strategy.id } },
      enableChange("doomed"),
    ]);
    await deleteStrategy(t, "doomed", strategy.id, "production");
    let shown = await t.gql<{ changeRequest: { features: { changes: { conflict: string | null }[] }[] } }>(
      `query($id: Int!) { changeRequest(id: $id) { features { changes { conflict } } } }`,
      { id },
    );
    expect(shown.data?.changeRequest.features[0]?.changes.map((c) => c.conflict)).toEqual([
      expect.stringMatching(/has been deleted/),
      null,
    ]);
    await archiveFlag(t, "doomed");
    shown = await t.gql(`query($id: Int!) { changeRequest(id: $id) { features { changes { conflict } } } }`, {
      id,
    });
    expect(
      shown.data?.changeRequest.features[0]?.changes.every((c) => /archived/.test(c.conflict ?? "")),
    ).toBe(true);
    const res = await t.gql(
      `mutation($id: Int!) { applyChangeRequest(project: "default", id: $id) { state } }`,
      { id },
      alice.token,
    );
    expect(res.errors?.[0]?.extensions?.code).toBe("CONFLICT");
  });
});

describe("concurrency", () => {
  it("two concurrent final approvals approve once", async () => {
    const id = await inReview(enableCheckout);
    const results = await Promise.all([
      setState(t, id, { state: "Approved" }, alice.token),
      setState(t, id, { state: "Approved" }, bob.token),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const cr = await t.rest("GET", `/api/admin/projects/default/change-requests/${id}`);
    expect(cr.body).toMatchObject({ state: "Approved" });
    expect(cr.body.approvals).toHaveLength(2);
    const approvedEvents = (await eventsOf(t, ["change-request-approved"])).filter(
      (e) => (e.data as { changeRequestId: number }).changeRequestId === id,
    );
    expect(approvedEvents).toHaveLength(1);
  });

  it("two concurrent applies apply once", async () => {
    await createFlag(t, "racy");
    const id = await approvedByBoth(enableChange("racy"));
    const results = await Promise.all([
      setState(t, id, { state: "Applied" }, alice.token),
      setState(t, id, { state: "Applied" }, bob.token),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    const enabled = (await eventsOf(t, ["feature-environment-enabled"])).filter(
      (e) => e.featureName === "racy",
    );
    expect(enabled).toHaveLength(1);
    const applied = (await eventsOf(t, ["change-request-applied"])).filter(
      (e) => (e.data as { changeRequestId: number }).changeRequestId === id,
    );
    expect(applied).toHaveLength(1);
  });
});

describe("listing", () => {
  it("GraphQL changeRequests filters by project, environment, state and author", async () => {
    const applied: number[] = [];
    for (const flag of ["listed-1", "listed-2"]) {
      await createFlag(t, flag);
      const id = await approvedByBoth(enableChange(flag));
      expect((await setState(t, id, { state: "Applied" }, alice.token)).status).toBe(200);
      applied.push(id);
    }
    const res = await t.gql<{
      changeRequests: {
        totalCount: number;
        edges: { node: { id: number; state: string; createdBy: { id: number } } }[];
      };
    }>(
      `query($by: Int) { changeRequests(project: "default", environment: "production", state: ["Applied"], createdBy: $by, first: 10) {
        totalCount edges { node { id: databaseId state createdBy { id } } } } }`,
      { by: author.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.changeRequests.totalCount).toBeGreaterThanOrEqual(2);
    expect(res.data?.changeRequests.edges.map((e) => e.node.id)).toEqual(expect.arrayContaining(applied));
    expect(
      res.data?.changeRequests.edges.every(
        (e) => e.node.state === "Applied" && e.node.createdBy.id === author.id,
      ),
    ).toBe(true);
  });

  it("spec 4.6 lists the caller's open requests, marked deprecated", async () => {
    const draft = await propose(t, "production", enableCheckout, bob.token);
    const res = await t.rest("GET", "/api/admin/projects/default/change-requests/open", undefined, bob.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([draft.body.id]);
    expect(res.body[0]).toMatchObject({ state: "Draft", createdBy: { username: "bob" } });
  });
});
