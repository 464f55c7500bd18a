import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveToken } from "../../src/modules/access/credentials.write.ts";
import { assertDirectChangeAllowed } from "../../src/modules/feature-environments/guards.read.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  configureChangeRequests,
  createFlag,
  createProject,
  createSegment,
  eventsOf,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import { enableChange, propose } from "./fixtures.ts";

let t: TestApp;
let editor: TestUser;
let viewer: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "eddie", "Editor");
  viewer = await userWithPat(t, "vera", "Viewer");
  await createFlag(t, "checkout");
  await createFlag(t, "banner");
  // Proposing needs change requests in production; the configuration tests use projects of their own.
  await configureChangeRequests(t, "production", 2);
});
afterAll(() => t.close());

/** The events of these types that name change request `id` in their data, oldest first. */
const eventsOfRequest = async (types: string[], id: number) =>
  (await eventsOf(t, types)).filter(
    (e) => (e.data as { changeRequestId?: number } | null)?.changeRequestId === id,
  );

describe("configuration", () => {
  it("turns change requests on with required approvals and records the change", async () => {
    await createProject(t, "configured");
    await configureChangeRequests(t, "production", 2, true, "configured");
    const res = await t.rest("GET", "/api/admin/projects/configured/change-requests/config");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        environment: "development",
        type: "development",
        changeRequestEnabled: false,
        requiredApprovals: null,
      },
      { environment: "production", type: "production", changeRequestEnabled: true, requiredApprovals: 2 },
    ]);
    const [event] = (await eventsOf(t, ["change-request-configuration-updated"])).filter(
      (e) => e.project === "configured",
    );
    expect(event).toMatchObject({
      project: "configured",
      environment: "production",
      data: { changeRequestsEnabled: true, requiredApprovals: 2 },
      preData: { changeRequestsEnabled: false, requiredApprovals: null },
    });
  });

  it("records nothing when the configuration does not change", async () => {
    await createProject(t, "configured-twice");
    await configureChangeRequests(t, "production", 2, true, "configured-twice");
    await configureChangeRequests(t, "production", 2, true, "configured-twice");
    const events = await eventsOf(t, ["change-request-configuration-updated"]);
    expect(events.filter((e) => e.project === "configured-twice")).toHaveLength(1);
  });

  it("refuses more than 10 approvals and unknown environments", async () => {
    const tooMany = await t.gql(
      `mutation { updateChangeRequestConfig(project: "default", environment: "production", changeRequestsEnabled: true, requiredApprovals: 11) { environment } }`,
    );
    expect(tooMany.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    const unknown = await t.rest(
      "PUT",
      "/api/admin/projects/default/environments/nowhere/change-requests/config",
      {
        changeRequestsEnabled: true,
      },
    );
    expect(unknown.status).toBe(404);
  });

  it("needs UPDATE_PROJECT", async () => {
    const res = await t.rest(
      "PUT",
      "/api/admin/projects/default/environments/development/change-requests/config",
      { changeRequestsEnabled: true, requiredApprovals: 1 },
      viewer.token,
    );
    expect(res.status).toBe(403);
  });

  it("the guard refuses direct changes without SKIP_CHANGE_REQUEST, and lets Admins and applied requests pass", async () => {
    const db = t.database.prisma;
    const admin = await userWithPat(t, "root", "Admin");
    const editorPrincipal = await resolveToken(db, editor.token);
    const adminPrincipal = await resolveToken(db, admin.token);
    const refused = assertDirectChangeAllowed(db, editorPrincipal, "default", "production");
    await expect(refused).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("change request"),
      extra: { permissions: ["SKIP_CHANGE_REQUEST"] },
    });
    await expect(
      assertDirectChangeAllowed(db, adminPrincipal, "default", "production"),
    ).resolves.toBeUndefined();
    await expect(
      assertDirectChangeAllowed(db, editorPrincipal, "default", "development"),
    ).resolves.toBeUndefined();
    const fromRequest = { tx: db, groupType: "change-request" } as never;
    await expect(
      assertDirectChangeAllowed(fromRequest, editorPrincipal, "default", "production"),
    ).resolves.toBeUndefined();
  });
});

describe("proposing (spec 4.5)", () => {
  // One Draft's story: each step adds to the Draft the one before made.
  it("creates the caller's Draft with the change and the default strategy it implies; adds later changes to it; another user gets their own; the flag environment shows it", async () => {
    await createFlag(t, "proposed");
    await createFlag(t, "proposed-banner");
    let id: number;
    // creates the caller's Draft with the change, grouped by flag, with the default strategy it implies
    {
      const res = await propose(t, "production", enableChange("proposed"), editor.token);
      expect(res.status).toBe(200);
      id = res.body.id;
      expect(res.body).toMatchObject({
        title: `Change request #${id}`,
        project: "default",
        environment: "production",
        state: "Draft",
        minApprovals: 2,
        createdBy: {
          id: editor.id,
          username: "eddie",
          imageUrl: `http://localhost:4242/avatars/${editor.id}.svg`,
        },
        features: [
          {
            name: "proposed",
            changes: [
              { action: "updateEnabled", payload: { enabled: true }, createdBy: { username: "eddie" } },
            ],
            defaultChange: {
              action: "addStrategy",
              payload: {
                name: "flexibleRollout",
                constraints: [],
                parameters: { rollout: "100", stickiness: "default", groupId: "proposed" },
              },
            },
          },
        ],
        segments: [],
        approvals: [],
        rejections: [],
        comments: [],
      });
      expect(res.body.features[0]).not.toHaveProperty("conflict");
      expect(res.body).not.toHaveProperty("schedule");
      expect(await eventsOfRequest(["change-request-created"], id)).toHaveLength(1);
      const [added] = await eventsOfRequest(["change-added"], id);
      expect(added).toMatchObject({
        featureName: "proposed",
        environment: "production",
        data: { changeRequestId: id, action: "updateEnabled" },
      });
    }
    // adds later changes (one or an array) to the same Draft
    {
      const strategy = await addStrategy(t, "proposed-banner", { name: "default" }, "production");
      const res = await propose(
        t,
        "production",
        [
          {
            action: "updateStrategy",
            feature: "proposed-banner",
            payload: { id: strategy.id, title: "Half" },
          },
          { action: "patchVariant", feature: "proposed-banner", payload: { variants: [] } },
        ],
        editor.token,
      );
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
      expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(["proposed", "proposed-banner"]);
      expect(res.body.features[1].changes.map((c: { action: string }) => c.action)).toEqual([
        "updateStrategy",
        "patchVariant",
      ]);
      expect(res.body.features[1]).not.toHaveProperty("defaultChange");
      expect(await eventsOfRequest(["change-request-created"], id)).toHaveLength(1);
      expect(await eventsOfRequest(["change-added"], id)).toHaveLength(3);
    }
    // gives another user their own Draft
    {
      const res = await propose(t, "production", { action: "archiveFeature", feature: "proposed-banner" });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(id);
      expect(res.body.createdBy.id).toBe(-42);
    }
    // shows open change requests on the flag environment (spec 2.7)
    {
      const res = await t.gql(`{ feature(name: "proposed") { environments { name changeRequestIds } } }`);
      const production = (res.data as any).feature.environments.find(
        (e: { name: string }) => e.name === "production",
      );
      expect(production.changeRequestIds).toContain(id);
    }
  });

  it.each([
    [{ action: "updateEnabled", feature: "checkout", payload: { enabled: "yes" } }, 400],
    [{ action: "updateEnabled", payload: { enabled: true } }, 400],
    [{ action: "deleteSegment", feature: "checkout", payload: { id: 1 } }, 400],
    [{ action: "addStrategy", feature: "checkout", payload: { name: "default" } }, 400],
    [{ action: "reorderStrategy", feature: "checkout", payload: [{ id: "x" }] }, 400],
    [{ action: "flyToTheMoon", feature: "checkout" }, 400],
    [{ action: "deleteStrategy", feature: "checkout", payload: { id: "no-such-strategy" } }, 404],
    [{ action: "updateEnabled", feature: "nope", payload: { enabled: true } }, 404],
    [{ action: "deleteSegment", payload: { id: 999 } }, 404],
    [{ action: "addDependency", feature: "checkout", payload: { feature: "ghost" } }, 404],
  ])("refuses an invalid change %j with %i", async (change, status) => {
    const res = await propose(t, "production", change, editor.token);
    expect(res.status).toBe(status);
  });

  it("refuses callers without the direct change's permission, and environments without change requests", async () => {
    const res = await propose(t, "production", enableChange("checkout"), viewer.token);
    expect(res.status).toBe(403);
    const off = await propose(t, "development", enableChange("checkout"), editor.token);
    expect(off.status).toBe(403);
    expect(off.body.name).toBe("InvalidOperationError");
  });

  it("accepts all 11 actions", async () => {
    const kept = await addStrategy(t, "checkout", { name: "default" }, "production");
    const dropped = await addStrategy(t, "checkout", { name: "default" }, "production");
    const segment = { id: await createSegment(t, "beta-users", { project: "default" }) };
    await createFlag(t, "parent");
    await createFlag(t, "retired");
    const res = await propose(t, "production", [
      enableChange("checkout", false),
      {
        action: "addStrategy",
        feature: "checkout",
        payload: { name: "default", constraints: [], parameters: {} },
      },
      { action: "updateStrategy", feature: "checkout", payload: { id: kept.id, title: "Kept" } },
      { action: "deleteStrategy", feature: "checkout", payload: { id: dropped.id } },
      { action: "reorderStrategy", feature: "checkout", payload: [{ id: kept.id, sortOrder: 1 }] },
      { action: "patchVariant", feature: "checkout", payload: { variants: [] } },
      { action: "addDependency", feature: "checkout", payload: { feature: "parent" } },
      { action: "deleteDependency", feature: "retired" },
      { action: "archiveFeature", feature: "retired" },
      { action: "updateSegment", payload: { id: segment.id, name: "beta", constraints: [] } },
      { action: "deleteSegment", payload: { id: segment.id } },
    ]);
    expect(res.status).toBe(200);
    const group = (name: string) => res.body.features.find((f: { name: string }) => f.name === name);
    expect(group("checkout").changes.map((c: { action: string }) => c.action)).toEqual([
      "updateEnabled",
      "addStrategy",
      "updateStrategy",
      "deleteStrategy",
      "reorderStrategy",
      "patchVariant",
      "addDependency",
    ]);
    expect(group("retired").changes.map((c: { action: string }) => c.action)).toEqual([
      "deleteDependency",
      "archiveFeature",
    ]);
    expect(res.body.segments).toEqual([
      expect.objectContaining({ action: "updateSegment", name: "beta-users" }),
      expect.objectContaining({ action: "deleteSegment", name: "beta-users" }),
    ]);
    expect(group("checkout").changes[6].payload).toEqual({ feature: "parent", enabled: true });
  });
});

describe("editing a Draft", () => {
  it("edits and discards changes, then discards the Draft", async () => {
    const created = await propose(t, "production", enableChange("banner"), viewer.token);
    expect(created.status).toBe(403);
    const draft = await propose(t, "production", enableChange("banner"), editor.token);
    const id = draft.body.id;
    const change = draft.body.features.find((f: { name: string }) => f.name === "banner").changes.at(-1);
    const onChange = (method: string, body: unknown, token: string) =>
      t.rest(method, `/api/admin/projects/default/change-requests/${id}/changes/${change.id}`, body, token);
    const edited = await onChange("PUT", enableChange("banner", false), editor.token);
    expect(edited.status).toBe(200);
    const after = edited.body.features.find((f: { name: string }) => f.name === "banner").changes.at(-1);
    expect(after.payload).toEqual({ enabled: false });
    expect((await eventsOfRequest(["change-edited"], id))[0]).toMatchObject({
      data: { changeRequestId: id, changeId: change.id, payload: { enabled: false } },
    });
    const bad = await onChange("PUT", { enabled: "no" }, editor.token);
    expect(bad.status).toBe(400);
    const notAuthor = await onChange("DELETE", undefined, viewer.token);
    expect(notAuthor.status).toBe(403);
    const discarded = await onChange("DELETE", undefined, editor.token);
    expect(discarded.status).toBe(204);
    expect(await eventsOfRequest(["change-discarded"], id)).toHaveLength(1);
    const gone = await t.rest(
      "DELETE",
      `/api/admin/projects/default/change-requests/${id}`,
      undefined,
      editor.token,
    );
    expect(gone.status).toBe(204);
    expect(await eventsOfRequest(["change-request-discarded"], id)).toHaveLength(1);
    expect((await t.rest("GET", `/api/admin/projects/default/change-requests/${id}`)).status).toBe(404);
  });
});
