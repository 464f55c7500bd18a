import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDueScheduledChangeRequests } from "../../src/jobs/scheduled-change-requests.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  configureChangeRequests,
  createFlag,
  eventsOf,
  flagEnabledIn,
  gqlOk,
  type TestUser,
  updateStrategy,
  userWithPat,
} from "../helpers/builders.ts";
import { approved, enableChange, setState } from "./fixtures.ts";

let t: TestApp;
let author: TestUser;
let approver: TestUser;
const NOW = new Date("2030-01-01T10:00:00.000Z");
const LATER = "2030-01-01T12:00:00.000Z";
const AFTER_LATER = new Date("2030-01-01T12:00:01.000Z");

beforeAll(async () => {
  t = await createTestApp();
  t.setNow(NOW);
  author = await userWithPat(t, "author", "Editor");
  approver = await userWithPat(t, "approver", "Admin");
  await configureChangeRequests(t, "production", 1);
});
afterAll(() => t.close());

/** A new flag and an approved request for `change` (default: turning it on in production). */
async function approvedFor(feature: string, change?: unknown) {
  await createFlag(t, feature);
  return approved(t, "production", change ?? enableChange(feature), author, [approver]);
}

async function scheduled(feature: string, change?: unknown, by = approver) {
  const id = await approvedFor(feature, change);
  const res = await setState(t, id, { state: "Scheduled", scheduledAt: LATER }, by.token);
  expect(res.status).toBe(200);
  return id;
}

const run = (now: Date) => runDueScheduledChangeRequests(t.deps, now);
/**
 * Runs the worker once at AFTER_LATER, the time every test runs it at, so that the requests
 * other tests left due are handled before a test schedules and counts its own.
 */
const runOthersDue = () => run(AFTER_LATER);
/** The events of these types that name change request `id` (in their data or group). */
const eventsOfRequest = async (types: string[], id: number) =>
  (await eventsOf(t, types)).filter(
    (e) =>
      (e.data as { changeRequestId?: number } | null)?.changeRequestId === id || e.groupId === String(id),
  );
const get = (id: number) => t.rest("GET", `/api/admin/projects/default/change-requests/${id}`);
const enabledIn = (feature: string) => flagEnabledIn(t, feature, "production");

describe("scheduling", () => {
  // One request's story: scheduled, then applied by the worker when due.
  it("schedules an Approved request for a future time (APPLY_CHANGE_REQUEST); the worker applies it when due, as the user who scheduled it", async () => {
    await runOthersDue();
    const id = await approvedFor("timed");
    expect((await setState(t, id, { state: "Scheduled", scheduledAt: LATER }, author.token)).status).toBe(
      403,
    );
    expect(
      (await setState(t, id, { state: "Scheduled", scheduledAt: "2029-12-31T00:00:00Z" }, approver.token))
        .status,
    ).toBe(400);
    expect((await setState(t, id, { state: "Scheduled" }, approver.token)).status).toBe(400);
    const res = await setState(t, id, { state: "Scheduled", scheduledAt: LATER }, approver.token);
    expect(res.body).toMatchObject({
      state: "Scheduled",
      schedule: { status: "pending", scheduledAt: LATER },
    });
    const [event] = await eventsOfRequest(["change-request-scheduled"], id);
    expect(event?.data).toEqual({ changeRequestId: id, scheduledDate: LATER });

    expect(await run(NOW)).toEqual({ applied: [], failed: [], suspended: [] });
    expect(await enabledIn("timed")).toBe(false);
    const outcome = await run(AFTER_LATER);
    expect(outcome.applied).toEqual([id]);
    expect((await get(id)).body.state).toBe("Applied");
    expect(await enabledIn("timed")).toBe(true);
    const [success] = await eventsOfRequest(["change-request-scheduled-application-success"], id);
    expect(success).toMatchObject({
      createdBy: "approver",
      groupType: "change-request",
      groupId: String(id),
    });
    const [enabled] = (await eventsOf(t, ["feature-environment-enabled"])).filter(
      (e) => e.featureName === "timed",
    );
    expect(enabled).toMatchObject({
      featureName: "timed",
      createdByUserId: approver.id,
      groupId: String(id),
    });
    expect(await run(AFTER_LATER)).toEqual({ applied: [], failed: [], suspended: [] });
  });

  it("a failure keeps it Scheduled with status failed and the reason", async () => {
    await runOthersDue();
    const id = await scheduled("broken");
    // Direct write: the API never removes a flag's environment row while the flag exists.
    await t.database.prisma.featureEnvironment.delete({
      where: { featureName_environmentName: { featureName: "broken", environmentName: "production" } },
    });
    expect((await run(AFTER_LATER)).failed).toEqual([id]);
    const res = await get(id);
    expect(res.body).toMatchObject({
      state: "Scheduled",
      schedule: {
        status: "failed",
        scheduledAt: LATER,
        reason: expect.stringContaining("Could not find environment"),
        failureReason: expect.any(String),
      },
    });
    expect(await eventsOfRequest(["change-request-scheduled-application-failure"], id)).toHaveLength(1);
    expect(await eventsOfRequest(["change-request-applied"], id)).toEqual([]);
    const rejected = await setState(t, id, { state: "Rejected", comment: "Broken" }, approver.token);
    expect(rejected.body).toMatchObject({ state: "Rejected" });
    expect(rejected.body).not.toHaveProperty("schedule");
  });

  it("a conflict suspends it with a reason; it can be rescheduled or applied now", async () => {
    await runOthersDue();
    await createFlag(t, "edited");
    const strategy = await addStrategy(t, "edited", { name: "default" }, "production");
    const id = await scheduled("edited-sibling", {
      action: "updateStrategy",
      feature: "edited",
      payload: { id: strategy.id, title: "New" },
    });
    await updateStrategy(t, "edited", strategy.id, { disabled: true }, "production");
    expect((await run(AFTER_LATER)).suspended).toEqual([id]);
    const res = await get(id);
    expect(res.body.schedule).toEqual({
      status: "suspended",
      scheduledAt: LATER,
      reason: expect.stringContaining("changed since"),
    });
    const [event] = await eventsOfRequest(["change-request-schedule-suspended"], id);
    expect(event?.data).toMatchObject({
      changeRequestId: id,
      reason: expect.stringContaining("changed since"),
    });
    const again = await setState(
      t,
      id,
      { state: "Scheduled", scheduledAt: "2030-01-02T00:00:00.000Z" },
      approver.token,
    );
    expect(again.body.schedule).toEqual({ status: "pending", scheduledAt: "2030-01-02T00:00:00.000Z" });
    expect((await setState(t, id, { state: "Applied" }, approver.token)).status).toBe(409);
  });

  it("the scheduler's deletion suspends it", async () => {
    await runOthersDue();
    const scheduler = await userWithPat(t, "leaver", "Admin");
    const id = await scheduled("orphan", undefined, scheduler);
    await gqlOk(t, `mutation($id: Int!) { deleteUser(id: $id) }`, { id: scheduler.id });
    expect((await run(AFTER_LATER)).suspended).toEqual([id]);
    const res = await get(id);
    expect(res.body.schedule.reason).toBe(
      `The user who scheduled this change request (user id: ${scheduler.id}) has been deleted from this Vexil instance.`,
    );
  });

  it("applying now and rescheduling work over GraphQL", async () => {
    const id = await scheduled("now");
    const moved = await t.gql<{ scheduleChangeRequest: { schedule: { scheduledAt: string } } }>(
      `mutation($id: Int!) { scheduleChangeRequest(project: "default", id: $id, scheduledAt: "2030-03-01T00:00:00.000Z") { schedule { scheduledAt } } }`,
      { id },
      approver.token,
    );
    expect(moved.data?.scheduleChangeRequest.schedule.scheduledAt).toBe("2030-03-01T00:00:00.000Z");
    const applied = await t.gql<{ applyChangeRequest: { state: string; schedule: null } }>(
      `mutation($id: Int!) { applyChangeRequest(project: "default", id: $id) { state schedule { status } } }`,
      { id },
      approver.token,
    );
    expect(applied.data?.applyChangeRequest).toEqual({ state: "Applied", schedule: null });
    expect(await enabledIn("now")).toBe(true);
  });

  it("two workers running at once apply a due request exactly once", async () => {
    await runOthersDue();
    const ids = [await scheduled("twice-a"), await scheduled("twice-b"), await scheduled("twice-c")];
    const [first, second] = await Promise.all([run(AFTER_LATER), run(AFTER_LATER)]);
    expect([...first.applied, ...second.applied].sort()).toEqual([...ids].sort());
    for (const name of ["twice-a", "twice-b", "twice-c"]) {
      expect(
        (await eventsOf(t, ["feature-environment-enabled"])).filter((e) => e.featureName === name),
      ).toHaveLength(1);
    }
  });
});
