import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  addStrategy,
  configureChangeRequests,
  createFlag,
  createSegment,
  eventsOf,
  flagEnabledIn,
  type TestUser,
  turnOnOverRest,
  userWithPat,
} from "../helpers/builders.ts";
import { approved, enableChange, propose, setState } from "./fixtures.ts";

let t: TestApp;
let author: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await userWithPat(t, "author", "Editor");
  admin = await userWithPat(t, "approver", "Admin");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

/** Proposed by the author, approved and applied by the admin; returns the request's id. */
async function applied(changes: unknown) {
  const id = await approved(t, "production", changes, author, [admin]);
  const res = await setState(t, id, { state: "Applied" }, admin.token);
  expect(res.status).toBe(200);
  return id;
}

describe("applying through the direct-change services", () => {
  it("direct changes to a protected environment are refused, with a change request they go through", async () => {
    await createFlag(t, "guarded");
    const direct = await turnOnOverRest(t, "guarded", "production", author.token);
    expect(direct.status).toBe(403);
    expect(direct.body.name).toBe("NoAccessError");
    expect(direct.body.message).toMatch(/change request/);
    const archive = await t.rest(
      "DELETE",
      "/api/admin/projects/default/features/guarded",
      undefined,
      author.token,
    );
    expect(archive.status).toBe(403);
    expect(archive.body.message).toMatch(/change request/);
    const id = await applied(enableChange("guarded"));
    const strategies = await t.database.prisma.featureStrategy.findMany({
      where: { featureName: "guarded", environmentName: "production" },
    });
    expect(strategies.map((s) => s.strategyName)).toEqual(["flexibleRollout"]);
    const grouped = await t.database.prisma.event.findMany({
      where: { groupType: "change-request", groupId: String(id) },
      orderBy: { id: "asc" },
    });
    expect(grouped.map((e) => e.type)).toEqual([
      "feature-strategy-add",
      "feature-environment-enabled",
      "change-request-applied",
    ]);
  });

  it("a change the service would refuse is refused when proposed, and nothing is kept", async () => {
    await createFlag(t, "strict");
    const before = await t.database.prisma.changeRequest.count();
    const res = await propose(
      t,
      "production",
      {
        action: "addStrategy",
        feature: "strict",
        payload: {
          name: "default",
          parameters: {},
          constraints: [{ contextName: "userId", operator: "NOT_AN_OPERATOR", values: ["1"] }],
        },
      },
      author.token,
    );
    expect(res.status).toBe(400);
    expect(await t.database.prisma.changeRequest.count()).toBe(before);
    expect(await t.database.prisma.featureStrategy.count({ where: { featureName: "strict" } })).toBe(0);
  });

  it("every action applies as its direct change, in one transaction", async () => {
    await createFlag(t, "full");
    await createFlag(t, "full-parent");
    await createFlag(t, "full-retired");
    const kept = await addStrategy(t, "full", { name: "default" }, "production");
    const dropped = await addStrategy(t, "full", { name: "default" }, "production");
    const segment = { id: await createSegment(t, "full-segment", { project: "default" }) };
    const id = await applied([
      {
        action: "addStrategy",
        feature: "full",
        payload: { name: "default", title: "Added", constraints: [], parameters: {} },
      },
      { action: "updateStrategy", feature: "full", payload: { id: kept.id, title: "Kept" } },
      { action: "deleteStrategy", feature: "full", payload: { id: dropped.id } },
      { action: "reorderStrategy", feature: "full", payload: [{ id: kept.id, sortOrder: 9 }] },
      enableChange("full"),
      {
        action: "patchVariant",
        feature: "full",
        payload: { variants: [{ name: "a", weight: 1000, weightType: "variable", stickiness: "default" }] },
      },
      { action: "addDependency", feature: "full", payload: { feature: "full-parent" } },
      { action: "deleteDependency", feature: "full-retired" },
      { action: "archiveFeature", feature: "full-retired" },
      { action: "updateSegment", payload: { id: segment.id, name: "renamed-segment" } },
      { action: "deleteSegment", payload: { id: segment.id } },
    ]);
    const db = t.database.prisma;
    const strategies = await db.featureStrategy.findMany({
      where: { featureName: "full", environmentName: "production" },
      orderBy: { sortOrder: "asc" },
    });
    expect(strategies.map((s) => [s.title, s.sortOrder])).toEqual([
      ["Added", expect.any(Number)],
      ["Kept", 9],
    ]);
    const env = await db.featureEnvironment.findUniqueOrThrow({
      where: { featureName_environmentName: { featureName: "full", environmentName: "production" } },
    });
    expect(env.enabled).toBe(true);
    expect((env.variants as { name: string }[]).map((v) => v.name)).toEqual(["a"]);
    expect(await db.featureDependency.findMany({ where: { childName: "full" } })).toEqual([
      expect.objectContaining({ parentName: "full-parent" }),
    ]);
    expect(
      (await db.feature.findUniqueOrThrow({ where: { name: "full-retired" } })).archivedAt,
    ).not.toBeNull();
    expect(await db.segment.findUnique({ where: { id: segment.id } })).toBeNull();
    const types = (
      await db.event.findMany({ where: { groupId: String(id), groupType: "change-request" } })
    ).map((e) => e.type);
    for (const type of [
      "feature-strategy-add",
      "feature-strategy-update",
      "feature-strategy-remove",
      "strategy-order-changed",
      "feature-environment-enabled",
      "feature-environment-variants-updated",
      "feature-dependency-added",
      "feature-archived",
      "segment-updated",
      "segment-deleted",
      "change-request-applied",
    ]) {
      expect(types).toContain(type);
    }
  });

  it("a failing change rolls every change of the request back", async () => {
    await createFlag(t, "half");
    const parentless = await applied([enableChange("half")]);
    expect(parentless).toBeGreaterThan(0);
    await createFlag(t, "half-child");
    await createFlag(t, "half-parent");
    const id = await approved(
      t,
      "production",
      [
        enableChange("half-child"),
        { action: "addDependency", feature: "half-child", payload: { feature: "half-parent" } },
      ],
      author,
      [admin],
    );
    // The reverse dependency, added after approval, makes the approved one a cycle.
    await addDependency(t, "half-parent", "half-child");
    const res = await setState(t, id, { state: "Applied" }, admin.token);
    expect(res.status).toBe(403);
    expect(res.body.name).toBe("InvalidOperationError");
    expect(await flagEnabledIn(t, "half-child", "production")).toBe(false);
    expect((await t.rest("GET", `/api/admin/projects/default/change-requests/${id}`)).body.state).toBe(
      "Approved",
    );
    expect(
      (await eventsOf(t, ["feature-environment-enabled"])).some((e) => e.featureName === "half-child"),
    ).toBe(false);
  });
});
