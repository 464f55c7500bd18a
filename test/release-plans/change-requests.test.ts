import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { runDueScheduledChangeRequests } from "../../src/jobs/scheduled-change-requests.ts";
import { propose, setState, submitted } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import {
  addProjectMember,
  apiToken,
  configureChangeRequests,
  createFlag,
  createRole,
  eventsOf,
  gqlError,
  gqlOk,
  recorded,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import {
  ERRORS_GUARD,
  MINUTE,
  minuteAhead,
  reportErrors as reportErrorsOf,
  rollout,
  rollouts as rolloutsIn,
} from "./fixtures.ts";

/**
 * Release plans where the environment requires change requests (issue 41.2, D-26): a plan is
 * added, removed, or a milestone started through Unleash's change kinds (`addReleasePlan`,
 * `deleteReleasePlan`, `startMilestone`), reviewed by someone else than their author; a timed
 * step opens a change request and waits for it; a safeguard's rollback acts directly.
 * Production requires one approval; development none.
 */
let t: TestApp;
let author: TestUser;
let reviewer: TestUser;
let colleague: TestUser;
let sdk: string;
let templateId = "";
const BASE = minuteAhead(60);

const PLAN = `databaseId state activeMilestone { name } milestones { databaseId name }
  stepChangeRequest { databaseId state title features { changes { action payload } } }`;
const target = (feature: string) => `project: "default", feature: "${feature}", environment: "production"`;

/** A role holding `permissions` in production, given to `user` in project default. */
async function grant(user: TestUser, role: string, permissions: string[]) {
  const id = await createRole(
    t,
    role,
    permissions.map((name) => ({ name, environment: "production" })),
  );
  await addProjectMember(t, "default", user.id, id);
}

async function planOf(feature: string, token?: string) {
  return (await gqlOk(t, `{ releasePlan(${target(feature)}) { ${PLAN} } }`, {}, token)).releasePlan;
}

const rollouts = (feature: string) => rolloutsIn(t, feature, "production");

const addPlan = (feature: string, payload: Record<string, unknown> = {}) => ({
  action: "addReleasePlan",
  feature,
  payload: { templateId, ...payload },
});

/** A flag with a plan in production, added through a reviewed change request (first milestone running). */
async function flagWithPlan(feature: string, at: number, payload: Record<string, unknown> = {}) {
  await createFlag(t, feature);
  await withClock(t, new Date(at), async () => {
    const id = await submitted(t, "production", addPlan(feature, { start: true, ...payload }), author);
    expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
    expect((await setState(t, id, { state: "Applied" }, reviewer.token)).status).toBe(200);
  });
  return planOf(feature);
}

/**
 * One evaluation pass at `at`. It evaluates every running plan, other tests' too: a test looks
 * at its own plan's outcome and its own flag's events (`about`).
 */
const passAt = (at: number) => withClock(t, new Date(at), () => runReleasePlansOnce(t.deps));
/** The request the pass opened for flag "timed": the one its change-added names. */
const waitingId = (
  events: { type: string; featureName: string | null; data: Record<string, any> | null }[],
) => events.find((e) => e.type === "change-added" && e.featureName === "timed")?.data?.changeRequestId;

const reportErrors = (at: number, value: number) => reportErrorsOf(t, sdk, at, value);

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  author = await userWithPat(t, "author", "Editor");
  reviewer = await userWithPat(t, "reviewer", "Viewer");
  colleague = await userWithPat(t, "colleague", "Editor");
  // The author may approve and apply in production too: only being the author stops them.
  await grant(author, "Author reviewer", ["APPROVE_CHANGE_REQUEST", "APPLY_CHANGE_REQUEST"]);
  await grant(reviewer, "Production reviewer", ["APPROVE_CHANGE_REQUEST", "APPLY_CHANGE_REQUEST"]);
  await configureChangeRequests(t, "production", 1);
  sdk = await apiToken(t, "client", "production", ["*"]);
  await reportErrors(BASE - 10 * MINUTE, 0); // the metric exists before safeguards name it
  const template = await gqlOk(
    t,
    `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
    {
      input: {
        name: "three-steps",
        milestones: [
          { name: "1 %", strategies: [rollout(1)], afterSeconds: 60 },
          { name: "25 %", strategies: [rollout(25)], afterSeconds: 60 },
          { name: "100 %", strategies: [rollout(100)] },
        ],
      },
    },
  );
  templateId = template.createReleaseTemplate.databaseId;
});
afterAll(() => t?.close());

describe("direct changes to a plan in a protected environment", () => {
  it("an Editor cannot add a plan, start a milestone, remove it or set safeguards directly (FORBIDDEN, SKIP_CHANGE_REQUEST); pausing and resuming change no strategy and pass", async () => {
    await createFlag(t, "direct-none");
    const apply = `mutation($tpl: String!) { applyReleaseTemplate(${target("direct-none")}, template: $tpl, start: true) { databaseId } }`;
    const { result, events } = await recorded(t, () => gqlError(t, apply, { tpl: templateId }, author.token));
    expect(result.code).toBe("FORBIDDEN");
    expect(result.message).toContain("SKIP_CHANGE_REQUEST");
    expect(events).toEqual([]);

    const plan = await flagWithPlan("direct", BASE);
    const second = plan.milestones[1].databaseId;
    const refused = [
      `mutation { startReleaseMilestone(${target("direct")}, milestone: "${second}") { databaseId } }`,
      `mutation { removeReleasePlan(${target("direct")}) { databaseId } }`,
      `mutation { setReleasePlanSafeguards(${target("direct")}, safeguards: []) { databaseId } }`,
    ];
    for (const mutation of refused) {
      expect((await gqlError(t, mutation, {}, author.token)).code, mutation).toBe("FORBIDDEN");
    }
    expect(await rollouts("direct")).toEqual(["1"]);
    const paused = await gqlOk(
      t,
      `mutation { pauseReleasePlan(${target("direct")}) { state } }`,
      {},
      author.token,
    );
    expect(paused.pauseReleasePlan.state).toBe("PAUSED");
    const resumed = await gqlOk(
      t,
      `mutation { resumeReleasePlan(${target("direct")}) { state } }`,
      {},
      author.token,
    );
    expect(resumed.resumeReleasePlan.state).toBe("ACTIVE");
  });
});

describe("a plan added through a change request (addReleasePlan)", () => {
  it("is proposed over REST in Unleash's shape, shown as pending, not approvable by its author, and applied by a reviewer in one transaction with its events", async () => {
    await createFlag(t, "reviewed");
    const draft = await propose(
      t,
      "production",
      addPlan("reviewed", { start: true, safeguards: [ERRORS_GUARD] }),
      author.token,
    );
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.features).toMatchObject([
      { name: "reviewed", changes: [{ action: "addReleasePlan", payload: { templateId, start: true } }] },
    ]);
    const id = draft.body.id as number;
    expect((await setState(t, id, { state: "In review" }, author.token)).status).toBe(200);
    const pending = await gqlOk(
      t,
      `{ releasePlanChangeRequests(${target("reviewed")}) { databaseId state } releasePlan(${target("reviewed")}) { databaseId } }`,
    );
    expect(pending).toEqual({
      releasePlanChangeRequests: [{ databaseId: id, state: "In review" }],
      releasePlan: null,
    });

    const own = await setState(t, id, { state: "Approved" }, author.token);
    expect(own.status).toBe(403);
    expect(own.body.message).toContain("author");
    expect((await setState(t, id, { state: "Approved" }, reviewer.token)).body.state).toBe("Approved");
    const { result, brief, events } = await recorded(t, () =>
      setState(t, id, { state: "Applied" }, reviewer.token),
    );
    expect(result.status).toBe(200);
    expect(brief.map((e) => e.type)).toEqual([
      "release-plan-added",
      "feature-strategy-add",
      "release-plan-milestone-started",
      "change-request-applied",
    ]);
    expect(new Set(events.map((e) => e.groupId))).toEqual(new Set([String(id)]));
    expect(brief[2]?.data).toMatchObject({ cause: "change-request", milestoneName: "1 %" });
    expect(await rollouts("reviewed")).toEqual(["1"]);
    const plan = await planOf("reviewed");
    expect(plan).toMatchObject({
      state: "ACTIVE",
      activeMilestone: { name: "1 %" },
      stepChangeRequest: null,
    });
    expect(
      (await gqlOk(t, `{ releasePlanChangeRequests(${target("reviewed")}) { databaseId } }`))
        .releasePlanChangeRequests,
    ).toEqual([]);
  });

  it("refuses bad proposals when proposed, storing nothing: unknown template or plan or milestone (404), a malformed payload or safeguard (400), a plan the flag already has (409)", async () => {
    await flagWithPlan("planned", BASE);
    const plan = await planOf("planned");
    await createFlag(t, "other");
    const cases: [unknown, number][] = [
      [addPlan("other", { templateId: "no-such-template" }), 404],
      [{ action: "addReleasePlan", feature: "other", payload: {} }, 400],
      [addPlan("other", { safeguards: [{ ...ERRORS_GUARD, metricName: "nope" }] }), 400],
      [addPlan("other", { safeguards: [{ ...ERRORS_GUARD, windowSeconds: 0 }] }), 400],
      [{ action: "addReleasePlan", payload: { templateId } }, 400],
      [addPlan("planned"), 409],
      [{ action: "startMilestone", feature: "planned", payload: { planId: plan.databaseId } }, 400],
      [{ action: "startMilestone", feature: "planned", payload: { planId: "nope", milestoneId: "x" } }, 404],
      [
        {
          action: "startMilestone",
          feature: "planned",
          payload: { planId: plan.databaseId, milestoneId: "x" },
        },
        404,
      ],
      [{ action: "deleteReleasePlan", feature: "other", payload: { planId: plan.databaseId } }, 404],
    ];
    for (const [change, status] of cases) {
      const { result, events } = await recorded(t, () => propose(t, "production", change, author.token));
      expect(result.status, JSON.stringify(change)).toBe(status);
      expect(result.body).toMatchObject({ id: expect.any(String), name: expect.any(String) });
      expect(events).toEqual([]);
    }
    expect(await t.database.prisma.changeRequestChange.count({ where: { featureName: "other" } })).toBe(0);
  });

  it("a second request for the same flag conflicts once the first is applied (409 on apply, shown on the request)", async () => {
    await createFlag(t, "twice");
    const first = await submitted(t, "production", addPlan("twice"), author);
    const second = await submitted(t, "production", addPlan("twice"), colleague);
    expect((await setState(t, first, { state: "Approved" }, reviewer.token)).status).toBe(200);
    expect((await setState(t, second, { state: "Approved" }, author.token)).status).toBe(200);
    expect((await setState(t, first, { state: "Applied" }, reviewer.token)).status).toBe(200);
    const refused = await setState(t, second, { state: "Applied" }, author.token);
    expect(refused.status).toBe(409);
    expect(refused.body.details[0].message).toContain("already has a release plan");
    const shown = await t.rest("GET", `/api/admin/projects/default/change-requests/${second}`);
    expect(shown.body.features[0].conflict).toContain("already has a release plan");
  });
});

describe("milestones through change requests (startMilestone)", () => {
  it("a person proposes a milestone ahead; approved and scheduled, the scheduler starts it at its time", async () => {
    const plan = await flagWithPlan("ahead", BASE);
    const change = {
      action: "startMilestone",
      feature: "ahead",
      payload: { planId: plan.databaseId, milestoneId: plan.milestones[2].databaseId },
    };
    const id = await submitted(t, "production", change, author);
    expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
    const at = new Date(BASE + 30 * MINUTE);
    await withClock(t, new Date(BASE + MINUTE), async () => {
      const res = await setState(
        t,
        id,
        { state: "Scheduled", scheduledAt: at.toISOString() },
        reviewer.token,
      );
      expect(res.body.state).toBe("Scheduled");
    });
    await runDueScheduledChangeRequests(t.deps, new Date(at.getTime() - 1000));
    expect(await rollouts("ahead")).toEqual(["1"]);
    const { result, brief } = await recorded(t, () => runDueScheduledChangeRequests(t.deps, at));
    expect(result.applied).toContain(id);
    expect(brief.map((e) => e.type)).toContain("release-plan-milestone-started");
    expect(await rollouts("ahead")).toEqual(["100"]);
  });

  it("a timed step opens a change request instead of acting, once; approved and applied it starts the milestone; a step turned down is not proposed again", async () => {
    const t0 = BASE + 100 * MINUTE;
    const plan = await flagWithPlan("timed", t0);
    expect((await passAt(t0 + 59_000)).get(plan.databaseId)).toBe("watched");
    const { result, brief } = await recorded(t, () => passAt(t0 + 60_000));
    expect(result.get(plan.databaseId)).toBe("proposed");
    const stepEvents = brief.filter((e) => e.data?.changeRequestId === waitingId(brief));
    expect(stepEvents.map((e) => e.type)).toEqual([
      "change-request-created",
      "change-added",
      "change-request-sent-to-review",
    ]);
    expect(await rollouts("timed")).toEqual(["1"]);
    const waiting = await planOf("timed");
    expect(waiting.stepChangeRequest).toMatchObject({
      state: "In review",
      title: 'Release plan "three-steps" of timed: start "25 %"',
      features: [
        { changes: [{ action: "startMilestone", payload: { milestoneId: plan.milestones[1].databaseId } }] },
      ],
    });
    const stepId = waiting.stepChangeRequest.databaseId as number;
    const again = await recorded(t, () => passAt(t0 + 90_000));
    expect(again.result.get(plan.databaseId)).toBe("awaiting");
    expect(again.events.filter((e) => e.featureName === "timed")).toEqual([]);

    // The system is its author: any approver may approve it; the step starts when applied.
    await withClock(t, new Date(t0 + 120_000), async () => {
      expect((await setState(t, stepId, { state: "Approved" }, reviewer.token)).body.state).toBe("Approved");
      expect((await setState(t, stepId, { state: "Applied" }, reviewer.token)).status).toBe(200);
    });
    expect(await rollouts("timed")).toEqual(["25"]);
    expect(await planOf("timed")).toMatchObject({
      activeMilestone: { name: "25 %" },
      stepChangeRequest: null,
    });

    const next = await passAt(t0 + 180_000);
    expect(next.get(plan.databaseId)).toBe("proposed");
    const nextId = (await planOf("timed")).stepChangeRequest.databaseId as number;
    expect(nextId).not.toBe(stepId);
    expect((await setState(t, nextId, { state: "Rejected" }, reviewer.token)).status).toBe(200);
    const turnedDown = await recorded(t, () => passAt(t0 + 600_000));
    expect(turnedDown.result.get(plan.databaseId)).toBe("awaiting");
    expect(turnedDown.events.filter((e) => e.featureName === "timed")).toEqual([]);
    expect((await planOf("timed")).stepChangeRequest.state).toBe("Rejected");
    expect(await rollouts("timed")).toEqual(["25"]);
  });

  it("a plan is removed through deleteReleasePlan; the strategies stay", async () => {
    const plan = await flagWithPlan("removed", BASE);
    const change = { action: "deleteReleasePlan", feature: "removed", payload: { planId: plan.databaseId } };
    const id = await submitted(t, "production", change, author);
    expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
    const { brief } = await recorded(t, () => setState(t, id, { state: "Applied" }, reviewer.token));
    expect(brief.map((e) => e.type)).toEqual(["release-plan-removed", "change-request-applied"]);
    expect(await planOf("removed")).toBeNull();
    expect(await rollouts("removed")).toEqual(["1"]);
  });
});

describe("a safeguard in a protected environment", () => {
  it("rolls back directly, without a change request (a safety action), and the step request it leaves conflicts", async () => {
    const t0 = BASE + 200 * MINUTE;
    await createFlag(t, "tripping");
    await withClock(t, new Date(t0), async () => {
      const id = await submitted(
        t,
        "production",
        addPlan("tripping", { start: true, safeguards: [ERRORS_GUARD] }),
        author,
      );
      expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
      expect((await setState(t, id, { state: "Applied" }, reviewer.token)).status).toBe(200);
    });
    const plan = await planOf("tripping");
    // 25 % through a reviewed request, then the next step is proposed when due.
    const change = {
      action: "startMilestone",
      feature: "tripping",
      payload: { planId: plan.databaseId, milestoneId: plan.milestones[1].databaseId },
    };
    await withClock(t, new Date(t0 + MINUTE), async () => {
      const id = await submitted(t, "production", change, author);
      expect((await setState(t, id, { state: "Approved" }, reviewer.token)).status).toBe(200);
      expect((await setState(t, id, { state: "Applied" }, reviewer.token)).status).toBe(200);
    });
    expect((await passAt(t0 + 2 * MINUTE)).get(plan.databaseId)).toBe("proposed");
    const stepId = (await planOf("tripping")).stepChangeRequest.databaseId as number;
    expect((await setState(t, stepId, { state: "Approved" }, reviewer.token)).status).toBe(200);

    await reportErrors(t0 + 2 * MINUTE + 1000, 9);
    const { result, brief } = await recorded(t, () => passAt(t0 + 2 * MINUTE + 2000));
    expect(result.get(plan.databaseId)).toBe("tripped");
    const own = brief.filter((e) => e.featureName === "tripping");
    expect(own.map((e) => e.type)).toEqual([
      "feature-strategy-remove",
      "feature-strategy-add",
      "release-plan-milestone-started",
      "safeguard-triggered",
      "release-plan-progressions-paused",
    ]);
    expect(brief.filter((e) => e.type.startsWith("change-"))).toEqual([]);
    expect(await rollouts("tripping")).toEqual(["1"]);
    expect(await planOf("tripping")).toMatchObject({ state: "PAUSED", stepChangeRequest: null });

    const stale = await setState(t, stepId, { state: "Applied" }, reviewer.token);
    expect(stale.status).toBe(409);
    expect(stale.body.details[0].message).toContain("has moved on");
    expect(await rollouts("tripping")).toEqual(["1"]);
    const started = await eventsOf(t, ["release-plan-milestone-started"]);
    expect(
      started.filter((e) => e.featureName === "tripping").map((e) => (e.data as { cause: string }).cause),
    ).toEqual(["change-request", "change-request", "rollback"]);
  });
});
