import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { eventsAfter, lastEventId } from "../helpers/builders.ts";

/**
 * Imports of the same file at once (issue 14.5). Each import reads what exists, then creates
 * what is missing (flags, tag type, context field, tags): on PostgreSQL (TEST_DATABASE_URL)
 * the transactions really overlap, and none may fail on a name the other created, nor create
 * anything twice.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const FLAGS = ["conc-a", "conc-b", "conc-c"];
const data = {
  features: FLAGS.map((name) => ({ name, type: "release", description: `flag ${name}` })),
  featureStrategies: FLAGS.map((featureName) => ({
    featureName,
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: featureName },
    constraints: [{ contextName: "conc-field", operator: "IN", values: ["x"] }],
  })),
  featureEnvironments: FLAGS.map((name) => ({ name, featureName: name, enabled: true, variants: [] })),
  contextFields: [{ name: "conc-field", legalValues: [{ value: "x" }, { value: "y" }] }],
  featureTags: FLAGS.map((featureName) => ({ featureName, tagType: "conc-type", tagValue: "together" })),
  tagTypes: [{ name: "conc-type", description: "made by an import" }],
  dependencies: [{ feature: "conc-b", dependencies: [{ feature: "conc-a" }] }],
};

describe("concurrent imports", () => {
  it("four imports of the same new flags, tag type, context field and tag: all succeed, each thing created once", async () => {
    const mark = await lastEventId(t);
    const body = { project: "default", environment: "development", data };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.rest("POST", "/api/admin/features-batch/import", body)),
    );
    expect(results.map((r) => [r.status, r.body])).toEqual(results.map(() => [200, undefined]));
    const types = (await eventsAfter(t, mark)).map((e) => `${e.type} ${e.featureName ?? ""}`.trim());
    const count = (type: string) => types.filter((x) => x === type).length;
    expect(count("tag-type-created")).toBe(1);
    expect(count("context-field-created")).toBe(1);
    expect(count("tag-created")).toBe(1);
    for (const flag of FLAGS) {
      expect(count(`feature-created ${flag}`), flag).toBe(1);
      expect(count(`feature-tagged ${flag}`), flag).toBe(1);
      expect(count(`feature-strategy-add ${flag}`), flag).toBe(1);
      expect(count(`feature-environment-enabled ${flag}`), flag).toBe(1);
    }
    expect(count("feature-dependency-added conc-b")).toBe(1);
    const exported = await t.rest("POST", "/api/admin/features-batch/export", {
      environment: "development",
      features: FLAGS,
    });
    expect(exported.body.featureStrategies).toHaveLength(3);
    expect(exported.body.featureTags).toHaveLength(3);
  });
});
