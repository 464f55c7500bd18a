import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  configureChangeRequests,
  createFlag,
  createSegment,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import { expectNoServerError, type Res, storedEvents, times } from "../helpers/concurrency.ts";

/**
 * The change-request guards of issue 36 point 3 under concurrency (D-26). On
 * PostgreSQL (TEST_DATABASE_URL) the requests really overlap at READ COMMITTED; PGlite runs
 * one transaction at a time, so there these only check the answers.
 */
let t: TestApp;
let editor: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "eddie", "Editor");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

const constraint = (value: string) => ({ contextName: "userId", operator: "IN", values: [value] });

describe("a segment change racing a protected strategy taking the segment", () => {
  it("the Editor's change lands only before the strategy takes it, never after", async () => {
    const rounds = 8;
    const segments = await Promise.all(
      Array.from({ length: rounds }, (_, i) =>
        createSegment(t, `racing-${i}`, { constraints: [constraint("before")] }),
      ),
    );
    const strategies: string[] = [];
    for (let i = 0; i < rounds; i++) {
      await createFlag(t, `racing-flag-${i}`);
      strategies.push((await addStrategy(t, `racing-flag-${i}`, { name: "default" }, "production")).id);
    }
    const results = await times(rounds * 2, async (k): Promise<Res> => {
      const i = Math.floor(k / 2);
      if (k % 2 === 0) {
        const body = { name: `racing-${i}`, constraints: [constraint("after")] };
        return t.rest("PUT", `/api/admin/segments/${segments[i]}`, body, editor.token);
      }
      return t.rest("POST", "/api/admin/segments/strategies", {
        projectId: "default",
        environmentId: "production",
        strategyId: strategies[i],
        segmentIds: [segments[i]],
      });
    });
    expectNoServerError(results);
    for (let i = 0; i < rounds; i++) {
      const [change, attach] = [results[2 * i], results[2 * i + 1]];
      expect(attach?.status, JSON.stringify(attach?.body)).toBe(201);
      expect([204, 403]).toContain(change?.status);
      const updated = await storedEvents(t, "segment-updated", {
        data: { path: ["id"], equals: segments[i] },
      });
      const attached = await storedEvents(t, "feature-strategy-update", { featureName: `racing-flag-${i}` });
      expect(attached).toHaveLength(1);
      if (change?.status === 204) {
        // serialized before the strategy took the segment: its event came first
        expect(updated).toHaveLength(1);
        expect(updated[0]?.id).toBeLessThan(attached[0]?.id ?? 0);
      } else {
        expect(updated).toHaveLength(0);
      }
    }
  });
});
