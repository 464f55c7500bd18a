import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { propose, setState } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import {
  addProjectMember,
  configureChangeRequests,
  createFlag,
  createRole,
  gqlOk,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";
import { expectNoServerError, storedEvents, times } from "../helpers/concurrency.ts";
import { rollout } from "../release-plans/fixtures.ts";

/**
 * Release plans through change requests under concurrency (D-26). On PostgreSQL
 * (TEST_DATABASE_URL) the requests really overlap at READ COMMITTED; PGlite runs one transaction
 * at a time, so there these only check the answers.
 */
let t: TestApp;
let author: TestUser;
const reviewers: TestUser[] = [];
let templateId = "";

/** A flag with a running plan in production (made by the admin token, which may skip review). */
async function planned(feature: string, at: Date) {
  await createFlag(t, feature);
  const data = await withClock(t, at, () =>
    gqlOk(
      t,
      `mutation($tpl: String!) { applyReleaseTemplate(project: "default", feature: "${feature}",
        environment: "production", template: $tpl, start: true) { databaseId milestones { databaseId } } }`,
      { tpl: templateId },
    ),
  );
  return data.applyReleaseTemplate as { databaseId: string; milestones: { databaseId: string }[] };
}

beforeAll(async () => {
  t = await createTestApp();
  author = await userWithPat(t, "author", "Editor");
  const role = await createRole(t, "Production reviewer", [
    { name: "APPROVE_CHANGE_REQUEST", environment: "production" },
    { name: "APPLY_CHANGE_REQUEST", environment: "production" },
  ]);
  for (const name of ["rita", "rob", "ruth"]) {
    const reviewer = await userWithPat(t, name, "Viewer");
    await addProjectMember(t, "default", reviewer.id, role);
    reviewers.push(reviewer);
  }
  await configureChangeRequests(t, "production", 1);
  const template = await gqlOk(
    t,
    `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
    {
      input: {
        name: "two",
        milestones: [
          { name: "10 %", strategies: [rollout(10)], afterSeconds: 60 },
          { name: "50 %", strategies: [rollout(50)] },
        ],
      },
    },
  );
  templateId = template.createReleaseTemplate.databaseId;
});
afterAll(() => t.close());

describe("a startMilestone change request", () => {
  it("three concurrent approvals approve it once; six concurrent applies start the milestone once", async () => {
    const plan = await planned("raced", new Date());
    const change = {
      action: "startMilestone",
      feature: "raced",
      payload: { planId: plan.databaseId, milestoneId: plan.milestones[1]?.databaseId },
    };
    const draft = await propose(t, "production", change, author.token);
    const id = draft.body.id as number;
    expect((await setState(t, id, { state: "In review" }, author.token)).status).toBe(200);

    const approvals = await times(3, (i) => setState(t, id, { state: "Approved" }, reviewers[i]?.token));
    expectNoServerError(approvals);
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1);
    for (const late of approvals.filter((r) => r.status !== 200)) {
      expect([late.status, late.body.message]).toEqual([
        403,
        'A change request in state "Approved" cannot be approved.',
      ]);
    }
    const byRequest = { data: { path: ["changeRequestId"], equals: id } };
    expect(await storedEvents(t, "change-request-approved", byRequest)).toHaveLength(1);

    const applies = await times(6, (i) => setState(t, id, { state: "Applied" }, reviewers[i % 3]?.token));
    expectNoServerError(applies);
    expect(applies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await storedEvents(t, "change-request-applied", byRequest)).toHaveLength(1);
    const started = await storedEvents(t, "release-plan-milestone-started", { featureName: "raced" });
    expect(started.map((e) => (e.data as { cause: string }).cause)).toEqual(["hand", "change-request"]);
  });
});

describe("a timed step where change requests are required", () => {
  it("three evaluation passes at once open one change request for it", async () => {
    const t0 = new Date(Date.now() + 3_600_000);
    const plan = await planned("stepped", t0);
    const due = new Date(t0.getTime() + 60_000);
    const passes = await withClock(t, due, () => times(3, () => runReleasePlansOnce(t.deps)));
    const outcomes = passes.map((p) => p.get(plan.databaseId)).filter(Boolean);
    expect(outcomes.filter((o) => o === "proposed")).toHaveLength(1);
    const opened = await storedEvents(t, "change-added", { featureName: "stepped" });
    expect(opened).toHaveLength(1);
    const again = await withClock(t, due, () => runReleasePlansOnce(t.deps));
    expect(again.get(plan.databaseId)).toBe("awaiting");
    expect(await storedEvents(t, "change-added", { featureName: "stepped" })).toHaveLength(1);
  });
});

describe("a template deleted while plans are made from it", () => {
  it("either the plan is made and the deletion refused (409), or the deletion wins and the plan is refused (404)", async () => {
    for (let round = 0; round < 6; round++) {
      const template = await gqlOk(
        t,
        `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
        { input: { name: `racing-${round}`, milestones: [{ name: "all", strategies: [rollout(100)] }] } },
      );
      const id = template.createReleaseTemplate.databaseId as string;
      await createFlag(t, `racing-${round}`);
      const [apply, remove] = await Promise.all([
        t.gql(
          `mutation($tpl: String!) { applyReleaseTemplate(project: "default", feature: "racing-${round}",
            environment: "development", template: $tpl, start: true) { databaseId } }`,
          { tpl: id },
        ),
        t.gql(`mutation($id: String!) { deleteReleaseTemplate(id: $id) { databaseId } }`, { id }),
      ]);
      const codes = [apply, remove].map((r) => (r.errors?.[0]?.extensions?.code as string) ?? "OK");
      expect([
        ["OK", "CONFLICT"],
        ["NOT_FOUND", "OK"],
      ]).toContainEqual(codes);
      const plans = await t.database.prisma.releasePlan.count({ where: { templateId: id } });
      const templates = await t.database.prisma.releasePlanTemplate.count({ where: { id } });
      expect(plans === 0 || templates === 1, `a plan of deleted template ${id}`).toBe(true);
      expect(
        await storedEvents(t, "release-plan-template-deleted", { preData: { path: ["id"], equals: id } }),
      ).toHaveLength(templates === 0 ? 1 : 0);
    }
  });
});
