import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-01-01T00:00:00.000Z");

beforeAll(async () => {
  t = await createTestApp();
  t.setNow(T0);
  await createFlag(t, "done");
  await createFlag(t, "release-flag");
  await createFlag(t, "ops-flag", { type: "operational" });
  await createFlag(t, "kill", { type: "kill-switch" });
  await createFlag(t, "stale-already");
  await t.gql(
    `mutation { setFeaturesStale(project: "default", names: ["stale-already"], stale: true) { name } }`,
  );
});
afterAll(() => t.close());

const COMPLETE = `mutation($status: CompletedStatus!, $value: String) {
  completeFeature(project: "default", name: "done", status: $status, statusValue: $value) { lifecycle { stage status enteredStageAt } } }`;

describe("completed stage", () => {
  it("refuses an unknown status as a bad request", async () => {
    const res = await t.gql(
      `mutation { completeFeature(project: "default", name: "done", status: maybe) { name } }`,
    );
    expect(res.errors).toBeDefined();
    expect(gqlCode(await t.gql(COMPLETE.replace('"done"', '"ghost"'), { status: "kept" }))).toBe("NOT_FOUND");
  });

  // One flag's story: completed, completed again, uncompleted.
  it("completes with kept + statusValue (feature-completed); again the same way records nothing, another status records again; uncompletes back to the previous stage", async () => {
    try {
      // completes with kept + statusValue: feature-completed {status, statusValue, kept}
      {
        t.setNow(new Date(T0.getTime() + DAY));
        const { result, brief } = await recorded(t, () => t.gql(COMPLETE, { status: "kept", value: "blue" }));
        expect(result).toEqual({
          data: {
            completeFeature: {
              lifecycle: { stage: "completed", status: "kept", enteredStageAt: "2026-01-02T00:00:00.000Z" },
            },
          },
        });
        expect(brief).toEqual([
          {
            type: "feature-completed",
            featureName: "done",
            data: { status: "kept", statusValue: "blue", kept: true },
            preData: null,
          },
        ]);
      }
      // records nothing when completed again the same way; a different status records again
      {
        expect((await recorded(t, () => t.gql(COMPLETE, { status: "kept", value: "blue" }))).events).toEqual(
          [],
        );
        const { brief } = await recorded(t, () => t.gql(COMPLETE, { status: "discarded" }));
        expect(brief).toEqual([
          {
            type: "feature-completed",
            featureName: "done",
            data: { status: "discarded", kept: false },
            preData: null,
          },
        ]);
      }
      // uncompletes back to the previous stage: feature-uncompleted, none when not completed
      {
        const UNCOMPLETE = `mutation { uncompleteFeature(project: "default", name: "done") { lifecycle { stage } } }`;
        const { result, brief } = await recorded(t, () => t.gql(UNCOMPLETE));
        expect(result).toEqual({ data: { uncompleteFeature: { lifecycle: { stage: "initial" } } } });
        expect(brief).toEqual([
          { type: "feature-uncompleted", featureName: "done", data: null, preData: null },
        ]);
        expect((await recorded(t, () => t.gql(UNCOMPLETE))).events).toEqual([]);
      }
    } finally {
      t.setNow(T0);
    }
  });
});

describe("potentially stale by flag-type lifetime", () => {
  const RUN = `mutation { markPotentiallyStaleFlags }`;

  // One clock's story: each step runs the job later than the one before, on the flags of beforeAll.
  it("marks nothing before any lifetime has passed; an operational flag after 7 days, as the system; release flags after 40 days, never kill-switches or stale flags, never twice; drops the mark without an event when the type no longer expires", async () => {
    try {
      // marks nothing before any lifetime has passed
      {
        t.setNow(new Date(T0.getTime() + 7 * DAY));
        const { result, events } = await recorded(t, () => t.gql(RUN));
        expect(result).toEqual({ data: { markPotentiallyStaleFlags: [] } });
        expect(events).toEqual([]);
      }
      // marks an operational flag after 7 days, as the system
      {
        t.setNow(new Date(T0.getTime() + 7 * DAY + 1));
        const { result, events } = await recorded(t, () => t.gql(RUN));
        expect(result).toEqual({ data: { markPotentiallyStaleFlags: ["ops-flag"] } });
        expect(events).toEqual([
          expect.objectContaining({
            type: "feature-potentially-stale-on",
            featureName: "ops-flag",
            project: "default",
            createdBy: "system",
            createdByUserId: -1337,
            data: null,
            preData: null,
          }),
        ]);
        const flag = await t.gql(`{ feature(name: "ops-flag") { potentiallyStale } }`);
        expect(flag.data).toEqual({ feature: { potentiallyStale: true } });
      }
      // marks release flags after 40 days, never kill-switches or stale flags, and never twice
      {
        t.setNow(new Date(T0.getTime() + 400 * DAY));
        const { result, events } = await recorded(t, () => t.gql(RUN));
        expect(result).toEqual({ data: { markPotentiallyStaleFlags: ["done", "release-flag"] } });
        expect(events.map((e) => e.featureName)).toEqual(["done", "release-flag"]);
        expect((await recorded(t, () => t.gql(RUN))).events).toEqual([]);
      }
      // drops the mark without an event when the type no longer expires
      {
        await t.gql(
          `mutation { updateFeature(project: "default", name: "ops-flag", input: { type: "kill-switch" }) { name } }`,
        );
        const { events } = await recorded(t, () => t.gql(RUN));
        expect(events).toEqual([]);
        const flag = await t.gql(`{ feature(name: "ops-flag") { potentiallyStale } }`);
        expect(flag.data).toEqual({ feature: { potentiallyStale: false } });
      }
    } finally {
      t.setNow(T0);
    }
  });

  it("needs ADMIN", async () => {
    expect(gqlCode(await t.gql(RUN, undefined, null))).toBe("UNAUTHENTICATED");
  });
});

describe("completed stage over REST", () => {
  const P = "/api/admin/projects/default/features/release-flag/lifecycle";

  it("completes (200, no body) and uncompletes with their events", async () => {
    const done = await recorded(t, () => t.rest("POST", `${P}/complete`, { status: "discarded" }));
    expect(done.result).toMatchObject({ status: 200, body: undefined });
    expect(done.brief).toEqual([
      {
        type: "feature-completed",
        featureName: "release-flag",
        data: { status: "discarded", kept: false },
        preData: null,
      },
    ]);
    const undone = await recorded(t, () => t.rest("POST", `${P}/uncomplete`));
    expect(undone.brief.map((e) => e.type)).toEqual(["feature-uncompleted"]);
  });

  it("refuses a bad status with 400 naming it", async () => {
    const res = await t.rest("POST", `${P}/complete`, { status: "maybe" });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/status/);
  });
});
