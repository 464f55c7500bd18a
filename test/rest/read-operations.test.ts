import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Unleash read paths a script uses to check what it wrote (issue 14). Every answer is also
 * checked against its route's declared response schema (checkRestResponses).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "reads-a" })).status).toBe(
    201,
  );
});
afterAll(() => t.close());

const FLAG = "/api/admin/projects/default/features/reads-a";

describe("Unleash read paths", () => {
  it("a flag's variants in one environment, as the PUT on the same path answers", async () => {
    const variants = [
      { name: "blue", weight: 1000, weightType: "variable", stickiness: "default", payload: null },
    ];
    const put = await t.rest("PUT", `${FLAG}/environments/development/variants`, variants);
    expect(put.status).toBe(200);
    const read = await t.rest("GET", `${FLAG}/environments/development/variants`);
    expect(read).toMatchObject({ status: 200, body: { version: 1, variants: put.body.variants } });
    expect(read.body.variants).toEqual([expect.objectContaining({ name: "blue", weight: 1000 })]);
    expect((await t.rest("GET", `${FLAG}/environments/production/variants`)).body).toEqual({
      version: 1,
      variants: [],
    });
    expect((await t.rest("GET", `${FLAG}/environments/nowhere/variants`)).status).toBe(404);
  });

  it("a flag's lifecycle stages, oldest first, with the status of a completed stage", async () => {
    const first = await t.rest("GET", `${FLAG}/lifecycle`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual([{ stage: "initial", enteredStageAt: expect.any(String) }]);
    expect(
      (await t.rest("POST", `${FLAG}/lifecycle/complete`, { status: "kept", statusValue: "on" })).status,
    ).toBeLessThan(300);
    const after = await t.rest("GET", `${FLAG}/lifecycle`);
    expect(after.body.map((s: { stage: string }) => s.stage)).toEqual(["initial", "completed"]);
    expect(after.body[1]).toMatchObject({ stage: "completed", status: "kept" });
    expect((await t.rest("GET", "/api/admin/projects/default/features/nope/lifecycle")).status).toBe(404);
  });

  it("one segment by id; 404 for an unknown id, 400 for one that is not a number", async () => {
    const created = await t.rest("POST", "/api/admin/segments", {
      name: "beta-testers",
      constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
    });
    expect(created.status).toBe(201);
    const read = await t.rest("GET", `/api/admin/segments/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: created.body.id,
      name: "beta-testers",
      constraints: [expect.objectContaining({ contextName: "userId", values: ["1", "2"] })],
    });
    expect((await t.rest("GET", "/api/admin/segments/987654")).status).toBe(404);
    expect((await t.rest("GET", "/api/admin/segments/abc")).status).toBe(400);
  });

  it("the environments of a project; 404 for an unknown project", async () => {
    const read = await t.rest("GET", "/api/admin/environments/project/default");
    expect(read.status).toBe(200);
    expect(read.body.version).toBe(1);
    expect(read.body.environments.map((e: { name: string }) => e.name)).toEqual([
      "development",
      "production",
    ]);
    expect((await t.rest("GET", "/api/admin/environments/project/nope")).status).toBe(404);
  });

  it("a project's /overview in Unleash's shape, with its onboarding status", async () => {
    expect((await t.rest("POST", "/api/admin/projects", { id: "fresh", name: "Fresh" })).status).toBe(201);
    const empty = await t.rest("GET", "/api/admin/projects/fresh/overview");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      version: 1,
      name: "Fresh",
      members: expect.any(Number),
      environments: expect.any(Array),
      featureTypeCounts: [],
      onboardingStatus: { status: "onboarding-started" },
    });
    expect(empty.body.features).toBeUndefined();
    const withFlag = await t.rest("GET", "/api/admin/projects/default/overview");
    expect(withFlag.body.onboardingStatus).toEqual({ status: "first-flag-created", feature: "reads-a" });
    expect(withFlag.body.featureTypeCounts).toEqual([{ type: "release", count: 1 }]);
    expect((await t.rest("GET", "/api/admin/projects/nope/overview")).status).toBe(404);
  });
});
