import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStrategy, createFlag, createUser, gqlOk } from "../helpers/builders.ts";
import { gqlAs, hasChromium, startUi, type UiHarness } from "./browser.ts";

/**
 * The UI shows a user the controls their permissions allow, by the API's own rule, and says who
 * may approve change requests, letting an admin fix it in place (issue 40.2).
 */
describe.skipIf(!hasChromium)("web UI: what each user may do", { timeout: 60_000 }, () => {
  let ui: UiHarness;
  const VERA = { username: "vera", password: "Vera-Password-1!" };
  const EDDIE = { username: "eddie", password: "Eddie-Password-1!" };
  const CAROL = { username: "carol", password: "Carol-Password-1!" };

  beforeAll(async () => {
    ui = await startUi();
    await createUser(ui, VERA.username, "Viewer", { email: null, password: VERA.password });
    for (const user of [EDDIE, CAROL])
      await createUser(ui, user.username, "Editor", { email: null, password: user.password });
  });
  afterAll(() => ui?.close());

  it("a Viewer reads a flag without the controls it may not use", async () => {
    await createFlag(ui, "read-only-flag");
    await addStrategy(ui, "read-only-flag", { name: "default", title: "Everyone" }, "development");
    const vera = await ui.signedIn(VERA, "/projects/default/flags/read-only-flag");
    await vera.getByRole("heading", { level: 1, name: "read-only-flag" }).waitFor();
    await vera.getByText("Everyone", { exact: true }).first().waitFor();
    expect(await vera.getByRole("switch", { name: "Enabled in development" }).isDisabled()).toBe(true);
    for (const name of [
      "Add strategy in development",
      "Edit Everyone",
      "Delete Everyone",
      "Archive",
      "Mark stale",
    ])
      expect(await vera.getByRole("button", { name, exact: true }).count()).toBe(0);
    for (const name of ["Flag settings", "Add tag", "Add dependency"])
      expect(await vera.getByRole("form", { name }).count()).toBe(0);

    // An Editor gets them.
    const eddie = await ui.signedIn(EDDIE, "/projects/default/flags/read-only-flag");
    await eddie.getByRole("button", { name: "Add strategy in development" }).waitFor();
    expect(await eddie.getByRole("switch", { name: "Enabled in development" }).isDisabled()).toBe(false);
  });

  it("project settings say who approves; an admin makes a member an approver in place", async () => {
    await createFlag(ui, "guarded-flag");
    await gqlOk(
      ui,
      `mutation { updateChangeRequestConfig(project: "default", environment: "production",
        changeRequestsEnabled: true, requiredApprovals: 1) { changeRequestEnabled } }`,
    );
    const admin = await ui.signedIn(undefined, "/projects/default");
    const approvers = admin.getByRole("note", { name: "Approvers in production" });
    await approvers.getByText(/Only admins can approve change requests in production/).waitFor();

    const eddie = await ui.signedIn(EDDIE, "/change-requests");
    const proposed = await gqlAs(
      eddie,
      `mutation { proposeChanges(project: "default", environment: "production",
        changes: [{ action: "updateEnabled", feature: "guarded-flag", payload: { enabled: true } }]) { databaseId } }`,
      {},
    );
    expect(proposed.errors).toBeUndefined();
    const id = proposed.data.proposeChanges.databaseId as number;
    const sent = await gqlAs(
      eddie,
      `mutation($id: Int!) { sendChangeRequestToReview(project: "default", id: $id) { state } }`,
      { id },
    );
    expect(sent.errors).toBeUndefined();

    // Carol, an Editor, may not approve yet: no button, and the page says why.
    const carol = await ui.signedIn(CAROL, `/change-requests/${id}`);
    await carol.getByText(/You cannot approve or reject change requests in production/).waitFor();
    expect(await carol.getByRole("button", { name: "Approve" }).count()).toBe(0);

    const form = approvers.getByRole("form", { name: "Make an approver in production" });
    await form.getByLabel("User to approve in production").selectOption({ label: "carol" });
    await form.getByRole("button", { name: "Make approver" }).click();
    await form.getByRole("status").filter({ hasText: "carol can now approve in production" }).waitFor();
    await approvers.getByText(/members with the role Change request approver \(production\)/).waitFor();

    const carolAgain = await ui.signedIn(CAROL, `/change-requests/${id}`);
    await carolAgain.getByRole("button", { name: "Approve" }).click();
    await carolAgain.getByText("Approved", { exact: true }).waitFor();
  });
});
