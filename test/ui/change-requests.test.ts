import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addProjectMember,
  addStrategy,
  createFlag,
  createRole,
  createUser,
  gqlOk,
} from "../helpers/builders.ts";
import { gqlAs, hasChromium, startUi, type UiHarness } from "./browser.ts";

const ALICE = { username: "alice", password: "Alice-Password-1!" };
const BOB = { username: "bob", password: "Bobby-Password-2!" };

const PROPOSE = `mutation($changes: [ChangeRequestChangeInput!]!) {
  proposeChanges(project: "default", environment: "production", changes: $changes) { databaseId state }
}`;

describe.skipIf(!hasChromium)("web UI: change requests", { timeout: 60_000 }, () => {
  let ui: UiHarness;
  let strategyId: string;

  beforeAll(async () => {
    ui = await startUi();
    const reviewer = await createRole(ui, "Production reviewer", [
      { name: "APPROVE_CHANGE_REQUEST", environment: "production" },
      { name: "APPLY_CHANGE_REQUEST", environment: "production" },
    ]);
    for (const user of [ALICE, BOB]) {
      const id = await createUser(ui, user.username, "Editor", { email: null, password: user.password });
      // Both may approve and apply in production: only authorship keeps Alice from approving her own.
      await addProjectMember(ui, "default", id, reviewer);
    }
    await createFlag(ui, "checkout");
    const strategy = await addStrategy(
      ui,
      "checkout",
      { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "default", groupId: "checkout" } },
      "production",
    );
    strategyId = strategy.id;
    await gqlOk(
      ui,
      `mutation { updateChangeRequestConfig(project: "default", environment: "production",
        changeRequestsEnabled: true, requiredApprovals: 1) { changeRequestEnabled } }`,
    );
  });
  afterAll(() => ui?.close());

  it("author sends to review and cannot approve; a reviewer reads the diff, comments, approves and applies", async () => {
    const alice = await ui.signedIn(ALICE, "/change-requests");
    const proposed = await gqlAs(alice, PROPOSE, {
      changes: [
        { action: "updateEnabled", feature: "checkout", payload: { enabled: true } },
        {
          action: "updateStrategy",
          feature: "checkout",
          payload: {
            id: strategyId,
            name: "flexibleRollout",
            parameters: { rollout: "75", stickiness: "default", groupId: "checkout" },
          },
        },
      ],
    });
    expect(proposed.errors).toBeUndefined();
    const id = proposed.data.proposeChanges.databaseId as number;

    await alice.reload();
    await alice.getByRole("link", { name: new RegExp(`#${id} `) }).click();
    // The default title is the number: said once.
    await alice.getByRole("heading", { level: 1, name: new RegExp(`^Change request #${id}$`) }).waitFor();
    await alice.getByLabel("Title", { exact: true }).fill("Roll out checkout to 75%");
    await alice.getByRole("button", { name: "Save title" }).click();
    await alice.getByRole("heading", { name: /Roll out checkout to 75%/ }).waitFor();
    await alice.getByRole("button", { name: "Send to review" }).click();
    await alice.getByText("In review", { exact: true }).waitFor();
    await alice.getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => alice.getByRole("alert").first().textContent())
      .toContain("The author of a change request cannot approve it.");

    const bob = await ui.signedIn(BOB, `/change-requests/${id}`);
    const changes = bob.getByRole("region", { name: "Changes to checkout" });
    await changes.getByText("Turn the flag on", { exact: true }).waitFor();
    const rollout = changes.getByRole("row", { name: /parameters\.rollout/ });
    await expect.poll(() => rollout.getByRole("cell").allTextContents()).toEqual(["50", "75"]);
    const enabled = changes.getByRole("row", { name: /^enabled/ });
    await expect.poll(() => enabled.getByRole("cell").allTextContents()).toEqual(["false", "true"]);

    await bob.getByRole("textbox", { name: "Comment" }).fill("Looks right, 75% it is.");
    await bob.getByRole("button", { name: "Add comment" }).click();
    await bob.getByText("Looks right, 75% it is.").waitFor();
    await bob.getByRole("button", { name: "Approve" }).click();
    await bob.getByText("Approved", { exact: true }).waitFor();
    await bob.getByRole("button", { name: "Apply changes" }).click();
    await bob.getByText("Applied", { exact: true }).waitFor();

    const flag = await ui.gql<any>(
      `{ projectFeature(project: "default", name: "checkout") {
        environments { name enabled strategies { databaseId parameters } } } }`,
    );
    const production = flag.data.projectFeature.environments.find(
      (e: { name: string }) => e.name === "production",
    );
    expect(production.enabled).toBe(true);
    expect(production.strategies[0].parameters.rollout).toBe("75");

    // The author sees the comment and the new state after a reload; "Before" is still the
    // flag as it was before the apply (not as it is now).
    await alice.reload();
    await alice.getByText("Looks right, 75% it is.").waitFor();
    await alice.getByText("Applied", { exact: true }).waitFor();
    await alice.getByText('"Before" shows the flag as it was just before the request was applied.').waitFor();
    const applied = alice.getByRole("region", { name: "Changes to checkout" });
    await expect
      .poll(() =>
        applied
          .getByRole("row", { name: /parameters\.rollout/ })
          .getByRole("cell")
          .allTextContents(),
      )
      .toEqual(["50", "75"]);
    await expect
      .poll(() =>
        applied
          .getByRole("row", { name: /^enabled/ })
          .getByRole("cell")
          .allTextContents(),
      )
      .toEqual(["false", "true"]);
  });

  it("the author discards one change; a reviewer approves and schedules the rest", async () => {
    const alice = await ui.signedIn(ALICE, "/change-requests");
    const proposed = await gqlAs(alice, PROPOSE, {
      changes: [
        { action: "deleteStrategy", feature: "checkout", payload: { id: strategyId } },
        { action: "updateEnabled", feature: "checkout", payload: { enabled: false } },
      ],
    });
    expect(proposed.errors).toBeUndefined();
    const id = proposed.data.proposeChanges.databaseId as number;
    await alice.goto(`/change-requests/${id}`);
    await alice.getByText("Delete strategy flexibleRollout", { exact: true }).waitFor();
    alice.once("dialog", (dialog) => void dialog.accept());
    await alice
      .getByRole("button", { name: /^Discard change/ })
      .first()
      .click();
    await expect
      .poll(() => alice.getByText("Delete strategy flexibleRollout", { exact: true }).count())
      .toBe(0);
    await alice.getByRole("button", { name: "Send to review" }).click();
    await alice.getByText("In review", { exact: true }).waitFor();

    const bob = await ui.signedIn(BOB, `/change-requests/${id}`);
    await bob.getByRole("button", { name: "Approve" }).click();
    await bob.getByText("Approved", { exact: true }).waitFor();
    await bob.getByLabel("Apply at (local time)").fill("2030-01-15T10:30");
    await bob.getByRole("button", { name: "Schedule" }).click();
    await bob.getByText("Scheduled", { exact: true }).waitFor();
    const expected = await bob.evaluate(() => new Date("2030-01-15T10:30").toISOString());
    const stored = await ui.gql<any>(
      `query($id: Int!) { changeRequest(id: $id) { state schedule { status scheduledAt } features { changes { action } } } }`,
      { id },
    );
    expect(stored.data.changeRequest).toMatchObject({
      state: "Scheduled",
      schedule: { status: "pending" },
      features: [{ changes: [{ action: "updateEnabled" }] }],
    });
    expect(new Date(stored.data.changeRequest.schedule.scheduledAt).toISOString()).toBe(expected);
  });

  it("a reviewer rejects a request, and the list filters by state", async () => {
    const alice = await ui.signedIn(ALICE, "/change-requests");
    const proposed = await gqlAs(alice, PROPOSE, {
      changes: [{ action: "updateEnabled", feature: "checkout", payload: { enabled: false } }],
    });
    expect(proposed.errors).toBeUndefined();
    const id = proposed.data.proposeChanges.databaseId as number;
    const sent = await gqlAs(
      alice,
      `mutation($id: Int!) { sendChangeRequestToReview(project: "default", id: $id) { state } }`,
      { id },
    );
    expect(sent.data.sendChangeRequestToReview.state).toBe("In review");

    const bob = await ui.signedIn(BOB, "/change-requests");
    await bob.getByRole("link", { name: new RegExp(`#${id} `) }).click();
    await bob.getByText("Turn the flag off", { exact: true }).waitFor();
    bob.once("dialog", (dialog) => void dialog.accept());
    await bob.getByRole("button", { name: "Reject" }).click();
    await bob.getByText("Rejected", { exact: true }).waitFor();
    await bob.getByText("Rejected by").waitFor();

    const state = await ui.gql<any>(`query($id: Int!) { changeRequest(id: $id) { state } }`, { id });
    expect(state.data.changeRequest.state).toBe("Rejected");

    await bob.goto("/change-requests");
    await bob.getByLabel("Status").selectOption("Rejected");
    await bob.getByRole("link", { name: new RegExp(`#${id} `) }).waitFor();
    await expect.poll(() => bob.getByText("1 change requests").count()).toBe(1);
    await bob.reload();
    await expect.poll(() => bob.getByLabel("Status").inputValue()).toBe("Rejected");
    await bob.getByLabel("Status").selectOption("open");
    await expect.poll(() => bob.getByRole("link", { name: new RegExp(`#${id} `) }).count()).toBe(0);
    expect(ui.externalRequests).toEqual([]);
  });
  it("end to end: proposed on the flag page of a protected environment, approved by another user, applied", async () => {
    await createFlag(ui, "guarded");
    const alice = await ui.signedIn(ALICE, "/projects/default/flags/guarded");
    const production = alice.getByRole("region", { name: /^production / });
    await production.getByText("Changes in production need review").waitFor();
    await production.getByRole("switch", { name: "Enabled in production" }).click();
    const link = production.getByRole("status").getByRole("link", { name: /^#\d+$/ });
    await link.waitFor();
    const id = Number((await link.textContent())?.slice(1));
    await link.click();
    await alice.getByRole("heading", { name: new RegExp(`Change request #${id}`) }).waitFor();
    await alice.getByRole("button", { name: "Send to review" }).click();
    await alice.getByText("In review", { exact: true }).waitFor();

    const bob = await ui.signedIn(BOB, "/change-requests");
    await bob.getByRole("link", { name: new RegExp(`#${id} `) }).click();
    const changes = bob.getByRole("region", { name: "Changes to guarded" });
    await changes.getByText("Turn the flag on", { exact: true }).waitFor();
    await bob.getByRole("button", { name: "Approve" }).click();
    await bob.getByText("Approved", { exact: true }).waitFor();
    await bob.getByRole("button", { name: "Apply changes" }).click();
    await bob.getByText("Applied", { exact: true }).waitFor();

    const flag = await ui.gql<any>(
      `{ projectFeature(project: "default", name: "guarded") { environments { name enabled } } }`,
    );
    expect(flag.data.projectFeature.environments).toContainEqual({ name: "production", enabled: true });
    await alice.goto("/projects/default/flags/guarded");
    await expect
      .poll(() => production.getByRole("switch", { name: "Enabled in production" }).isChecked())
      .toBe(true);
    expect(ui.externalRequests).toEqual([]);
  });
});
