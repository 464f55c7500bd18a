import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, archiveFlag, createFlag, gqlError, gqlOk, recorded } from "../helpers/builders.ts";
import {
  ERRORS_GUARD,
  MINUTE,
  minuteAhead,
  reportErrors as reportErrorsOf,
  rollout,
  rollouts as rolloutsIn,
} from "./fixtures.ts";

/**
 * Release templates and plans over GraphQL (issue 41.2, 41.3): templates of milestones, plans on
 * a flag in an environment, milestones started by hand and by time, safeguards on impact
 * metrics tripping a rollback; bad input refused whole. The evaluation pass
 * (src/jobs/release-plans.ts) runs at the app's clock, as the server's timer runs it.
 */
let t: TestApp;
let sdk: string;
const TEMPLATE = {
  name: "three-steps",
  milestones: [
    { name: "1 %", strategies: [rollout(1)], afterSeconds: 60 },
    { name: "25 %", strategies: [rollout(25)], afterSeconds: 60 },
    { name: "100 %", strategies: [rollout(100)] },
  ],
};
const PLAN = `databaseId state version activeMilestone { name } nextMilestoneAt pauseReason
  milestones { databaseId name afterSeconds } safeguards { metricName aggregationMode operator threshold windowSeconds action }`;
const CREATE = `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId name milestones { databaseId name } } }`;
const APPLY = `mutation($f: String!, $env: String!, $tpl: String!, $sg: [SafeguardInput!], $start: Boolean) {
  applyReleaseTemplate(project: "default", feature: $f, environment: $env, template: $tpl, safeguards: $sg, start: $start) { ${PLAN} } }`;

let templateId = "";

const rollouts = (feature: string, environment = "development") => rolloutsIn(t, feature, environment);
const reportErrors = (at: Date, value: number) => reportErrorsOf(t, sdk, at, value);

async function passAt(at: Date) {
  t.setNow(at);
  try {
    return await runReleasePlansOnce(t.deps);
  } finally {
    t.setNow(null);
  }
}

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  sdk = await apiToken(t, "client", "development", ["*"]);
  templateId = (await gqlOk(t, CREATE, { input: TEMPLATE })).createReleaseTemplate.databaseId;
  await reportErrors(new Date(), 0); // the metric exists before safeguards name it
});
afterAll(() => t?.close());

describe("release templates", () => {
  it("keeps the milestones in order, and records release-plan-template-created", async () => {
    const { result, brief } = await recorded(t, () =>
      gqlOk(t, CREATE, { input: { ...TEMPLATE, name: "another", description: "two steps" } }),
    );
    expect(result.createReleaseTemplate.milestones.map((m: { name: string }) => m.name)).toEqual([
      "1 %",
      "25 %",
      "100 %",
    ]);
    expect(brief).toMatchObject([
      { type: "release-plan-template-created", data: { name: "another", description: "two steps" } },
    ]);
    const listed = await gqlOk(t, `{ releaseTemplates { name } }`);
    expect(listed.releaseTemplates.map((r: { name: string }) => r.name)).toEqual(["another", "three-steps"]);
  });

  it("refuses a template without milestone, a milestone without strategy or with a zero duration, writing nothing", async () => {
    const bad = [
      { name: "empty", milestones: [] },
      { name: "bare", milestones: [{ name: "m", strategies: [] }] },
      { name: "zero", milestones: [{ name: "m", strategies: [rollout(1)], afterSeconds: 0 }] },
      { name: "negative", milestones: [{ name: "m", strategies: [rollout(1)], afterSeconds: -5 }] },
    ];
    for (const input of bad) {
      const { result } = await recorded(t, () => gqlError(t, CREATE, { input }));
      expect(result.code, input.name).toBe("VALIDATION");
    }
    expect(await t.database.prisma.releasePlanTemplate.count()).toBe(2);
    expect((await gqlError(t, CREATE, { input: TEMPLATE })).code).toBe("NAME_EXISTS");
  });
});

describe("applying a template", () => {
  it("refuses an unknown metric, a window of zero or less, a percentile of a counter, a segment that does not exist: nothing written", async () => {
    await createFlag(t, "refused");
    const cases: [unknown, unknown, string][] = [
      [templateId, [{ ...ERRORS_GUARD, metricName: "nope" }], "VALIDATION"],
      [templateId, [{ ...ERRORS_GUARD, windowSeconds: 0 }], "VALIDATION"],
      [templateId, [{ ...ERRORS_GUARD, windowSeconds: -60 }], "VALIDATION"],
      [templateId, [{ ...ERRORS_GUARD, aggregationMode: "p95" }], "VALIDATION"],
      [templateId, [{ ...ERRORS_GUARD, operator: ">=" }], "VALIDATION"],
      ["no-such-template", [], "NOT_FOUND"],
    ];
    for (const [tpl, sg, code] of cases) {
      const { result, events } = await recorded(t, () =>
        gqlError(t, APPLY, { f: "refused", env: "development", tpl, sg }),
      );
      expect(result.code, JSON.stringify(sg)).toBe(code);
      expect(events).toEqual([]);
    }
    const unknownType = (
      await gqlOk(t, CREATE, {
        input: {
          name: "odd",
          milestones: [{ name: "m", strategies: [{ ...rollout(5), segments: [424242] }] }],
        },
      })
    ).createReleaseTemplate.databaseId;
    const { result, events } = await recorded(t, () =>
      gqlError(t, APPLY, { f: "refused", env: "development", tpl: unknownType, start: true }),
    );
    expect(result.code).toBe("VALIDATION");
    expect(events.map((e) => e.type)).toEqual([]);
    expect(await t.database.prisma.releasePlan.count({ where: { featureName: "refused" } })).toBe(0);
  });

  it("refuses an archived flag (ARCHIVED)", async () => {
    await createFlag(t, "gone");
    await archiveFlag(t, "gone");
    expect((await gqlError(t, APPLY, { f: "gone", env: "development", tpl: templateId })).code).toBe(
      "ARCHIVED",
    );
  });

  it("makes a plan (release-plan-added), starts the first milestone, and refuses a second plan (CONFLICT)", async () => {
    await createFlag(t, "by-hand");
    const { result, brief } = await recorded(t, () =>
      gqlOk(t, APPLY, { f: "by-hand", env: "development", tpl: templateId, sg: [ERRORS_GUARD], start: true }),
    );
    const plan = result.applyReleaseTemplate;
    expect(plan).toMatchObject({
      state: "ACTIVE",
      activeMilestone: { name: "1 %" },
      safeguards: [{ ...ERRORS_GUARD, action: "rollback" }],
    });
    expect(brief.map((e) => e.type)).toEqual([
      "release-plan-added",
      "feature-strategy-add",
      "release-plan-milestone-started",
    ]);
    expect(await rollouts("by-hand")).toEqual(["1"]);
    expect((await gqlError(t, APPLY, { f: "by-hand", env: "development", tpl: templateId })).code).toBe(
      "CONFLICT",
    );

    const target = `project: "default", feature: "by-hand", environment: "development"`;
    const third = plan.milestones[2].databaseId;
    const started = await recorded(t, () =>
      gqlOk(t, `mutation { startReleaseMilestone(${target}, milestone: "${third}") { ${PLAN} } }`),
    );
    expect(started.result.startReleaseMilestone.activeMilestone.name).toBe("100 %");
    expect(started.brief.map((e) => e.type)).toEqual([
      "feature-strategy-remove",
      "feature-strategy-add",
      "release-plan-milestone-started",
    ]);
    expect(await rollouts("by-hand")).toEqual(["100"]);
    const paused = await gqlOk(t, `mutation { pauseReleasePlan(${target}) { state } }`);
    expect(paused.pauseReleasePlan.state).toBe("PAUSED");
    expect(
      (await gqlOk(t, `mutation { resumeReleasePlan(${target}) { state } }`)).resumeReleasePlan.state,
    ).toBe("ACTIVE");
    const removed = await recorded(t, () =>
      gqlOk(t, `mutation { removeReleasePlan(${target}) { databaseId } }`),
    );
    expect(removed.brief.map((e) => e.type)).toEqual(["release-plan-removed"]);
    expect(await gqlOk(t, `{ releasePlan(${target}) { databaseId } }`)).toEqual({ releasePlan: null });
    expect(await rollouts("by-hand")).toEqual(["100"]);
  });
});

describe("the evaluation pass", () => {
  it("moves on when a milestone's time is up, and not before", async () => {
    await createFlag(t, "timed");
    const t0 = new Date();
    t.setNow(t0);
    await gqlOk(t, APPLY, { f: "timed", env: "development", tpl: templateId, start: true });
    t.setNow(null);
    const plan = await t.database.prisma.releasePlan.findUniqueOrThrow({
      where: { featureName_environment: { featureName: "timed", environment: "development" } },
    });
    expect((await passAt(new Date(t0.getTime() + 59_000))).get(plan.id)).toBe("watched");
    expect((await passAt(new Date(t0.getTime() + 60_000))).get(plan.id)).toBe("advanced");
    expect(await rollouts("timed")).toEqual(["25"]);
    expect((await passAt(new Date(t0.getTime() + 60_500))).get(plan.id)).toBe("watched");
    expect((await passAt(new Date(t0.getTime() + 120_000))).get(plan.id)).toBe("advanced");
    expect(await rollouts("timed")).toEqual(["100"]);
    expect((await passAt(new Date(t0.getTime() + 999_000))).get(plan.id)).toBe("watched");
    const started = await t.database.prisma.event.findMany({
      where: { type: "release-plan-milestone-started", featureName: "timed" },
      orderBy: { id: "asc" },
    });
    expect(started.map((e) => (e.data as { cause: string }).cause)).toEqual(["hand", "schedule", "schedule"]);
  });

  it("rolls back to the previous milestone and pauses when a safeguard trips, once, with its numbers", async () => {
    await createFlag(t, "tripping");
    const t0 = new Date(minuteAhead(5));
    t.setNow(t0);
    await gqlOk(t, APPLY, {
      f: "tripping",
      env: "development",
      tpl: templateId,
      sg: [ERRORS_GUARD],
      start: true,
    });
    t.setNow(null);
    await passAt(new Date(t0.getTime() + 60_000)); // now at 25 %
    await reportErrors(new Date(t0.getTime() + 61_000), 2);
    const low = await passAt(new Date(t0.getTime() + 62_000));
    expect([...low.values()]).toContain("watched");
    await reportErrors(new Date(t0.getTime() + 63_000), 9);
    const { result, brief } = await recorded(t, () => passAt(new Date(t0.getTime() + 64_000)));
    expect([...result.values()]).toContain("tripped");
    expect(await rollouts("tripping")).toEqual(["1"]);
    const triggered = brief.find((e) => e.type === "safeguard-triggered");
    expect(triggered?.data).toMatchObject({
      value: 11,
      safeguard: { metricName: "http_errors", threshold: 5 },
    });
    expect(brief.map((e) => e.type)).toEqual([
      "feature-strategy-remove",
      "feature-strategy-add",
      "release-plan-milestone-started",
      "safeguard-triggered",
      "release-plan-progressions-paused",
    ]);
    const plan = await gqlOk(
      t,
      `{ releasePlan(project: "default", feature: "tripping", environment: "development") { ${PLAN} } }`,
    );
    expect(plan.releasePlan).toMatchObject({
      state: "PAUSED",
      activeMilestone: { name: "1 %" },
      pauseReason: { value: 11 },
    });
    // A paused plan is neither watched nor moved on: the next passes do nothing.
    const again = await recorded(t, () => passAt(new Date(t0.getTime() + 200_000)));
    expect(again.events).toEqual([]);
  });

  it("with a previousMilestone baseline, trips on the rise over the window before the milestone, not on the reading", async () => {
    await createFlag(t, "baselined");
    const t0 = new Date(minuteAhead(20));
    t.setNow(t0);
    const sg = [{ ...ERRORS_GUARD, baseline: "previousMilestone" }];
    const applied = await gqlOk(
      t,
      APPLY.replace("windowSeconds action }", "windowSeconds action baseline }"),
      { f: "baselined", env: "development", tpl: templateId, sg, start: true },
    );
    expect(applied.applyReleaseTemplate.safeguards[0].baseline).toBe("previousMilestone");
    const planId = applied.applyReleaseTemplate.databaseId as string;
    t.setNow(null);
    // The 1 % milestone already sees 10 errors: no earlier milestone, so nothing to compare with.
    await reportErrors(new Date(t0.getTime() + 1_000), 10);
    expect((await passAt(new Date(t0.getTime() + 2_000))).get(planId)).toBe("watched");
    await passAt(new Date(t0.getTime() + 60_000)); // now at 25 %
    // 12 errors: over the threshold of 5, but only 2 more than before the milestone.
    await reportErrors(new Date(t0.getTime() + 61_000), 12);
    expect((await passAt(new Date(t0.getTime() + 62_000))).get(planId)).toBe("watched");
    expect(await rollouts("baselined")).toEqual(["25"]);
    await reportErrors(new Date(t0.getTime() + 63_000), 9);
    const { brief } = await recorded(t, () => passAt(new Date(t0.getTime() + 64_000)));
    expect(brief.find((e) => e.type === "safeguard-triggered")?.data).toMatchObject({
      value: 11,
      current: 21,
      baseline: 10,
      safeguard: { baseline: "previousMilestone" },
    });
    expect(await rollouts("baselined")).toEqual(["1"]);
    await createFlag(t, "baselined-bad");
    expect(
      (
        await gqlError(t, APPLY, {
          f: "baselined-bad",
          env: "development",
          tpl: templateId,
          sg: [{ ...ERRORS_GUARD, baseline: "yesterday" }],
        })
      ).code,
    ).toBe("VALIDATION");
  });

  it("turns the flag off when a safeguard says disable", async () => {
    await createFlag(t, "switch-off", { enabledIn: ["development"] });
    const t0 = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 10 * MINUTE);
    t.setNow(t0);
    const sg = [{ ...ERRORS_GUARD, action: "disable", threshold: 1 }];
    await gqlOk(t, APPLY, { f: "switch-off", env: "development", tpl: templateId, sg, start: true });
    t.setNow(null);
    await reportErrors(new Date(t0.getTime() + 1_000), 3);
    const { brief } = await recorded(t, () => passAt(new Date(t0.getTime() + 2_000)));
    expect(brief.map((e) => e.type)).toEqual([
      "feature-environment-disabled",
      "safeguard-triggered",
      "release-plan-progressions-paused",
    ]);
  });
});
