import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createTagType, eventsAfter, lastEventId } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createTagType(t, "team");
});
afterAll(() => t.close());

it("replays a management script over REST and leaves exactly the expected events, in order", async () => {
  const start = await lastEventId(t);
  const P = "/api/admin/projects/default";
  const steps: [string, string, unknown, number][] = [
    ["POST", `${P}/features`, { name: "checkout", type: "release", description: "New checkout" }, 201],
    ["POST", `${P}/features`, { name: "checkout-banner", impressionData: true }, 201],
    ["POST", "/api/admin/features/checkout/tags", { type: "team", value: "payments" }, 201],
    ["POST", "/api/admin/features/checkout-banner/tags", { type: "team", value: "payments" }, 201],
    ["POST", `${P}/features/checkout-banner/dependencies`, { feature: "checkout" }, 200],
    ["PATCH", `${P}/features/checkout`, [{ op: "replace", path: "/description", value: "Checkout v2" }], 200],
    ["POST", `${P}/stale`, { features: ["checkout-banner"], stale: true }, 202],
    ["POST", `${P}/features/checkout/favorites`, undefined, 200],
    ["DELETE", `${P}/features/checkout-banner`, undefined, 202],
    ["DELETE", `${P}/features/checkout`, undefined, 202],
  ];
  for (const [method, path, body, status] of steps) {
    const res = await t.rest(method, path, body);
    expect({ method, path, status: res.status }).toEqual({ method, path, status });
  }
  const events = await eventsAfter(t, start);
  expect(events.map((e) => [e.type, e.featureName])).toEqual([
    ["feature-created", "checkout"],
    ["feature-created", "checkout-banner"],
    ["tag-created", null],
    ["feature-tagged", "checkout"],
    ["feature-tagged", "checkout-banner"],
    ["feature-dependency-added", "checkout-banner"],
    ["feature-metadata-updated", "checkout"],
    ["feature-stale-on", "checkout-banner"],
    ["feature-favorited", "checkout"],
    ["feature-archived", "checkout-banner"],
    ["feature-dependencies-removed", "checkout-banner"],
    ["feature-archived", "checkout"],
  ]);
  expect(events.every((e) => e.createdBy === "admin-token" && e.createdByUserId === -42)).toBe(true);
  const ids = events.map((e) => e.id);
  expect([...ids].sort((a, b) => a - b)).toEqual(ids);
});
