import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addProjectMember, createFlag, createUser, gqlOk } from "../helpers/builders.ts";
import { readMetrics } from "../helpers/metrics.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** Open lists follow changes made elsewhere, without a reload (issue 40.7). */
describe.skipIf(!hasChromium)("web UI: lists that stay current", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  /** Subscriptions open on the server (`/metrics`). */
  const liveSubscriptions = async () => (await readMetrics(ui))("vexil_live_subscriptions");

  it("the flag list shows a flag created elsewhere", async () => {
    await expect.poll(liveSubscriptions).toBe(0);
    const page = await ui.signedIn(undefined, "/flags");
    await page.getByRole("heading", { level: 1, name: "Flags" }).waitFor();
    await expect.poll(liveSubscriptions).toBeGreaterThanOrEqual(1);
    await createFlag(ui, "made-elsewhere");
    await page.getByRole("link", { name: "made-elsewhere" }).waitFor();
  });

  it("the project page shows a new member and a new environment", async () => {
    // The pages of other tests are closed: only this page's subscriptions count below.
    await expect.poll(liveSubscriptions).toBe(0);
    const page = await ui.signedIn(undefined, "/projects/default");
    const members = page.getByRole("definition").filter({ hasText: /^\d+$/ }).last();
    await members.waitFor();
    // A change made before the page's subscriptions reach the server would never show: wait for
    // them (this page holds two) as a user would wait for the page to settle.
    await expect.poll(liveSubscriptions).toBeGreaterThanOrEqual(2);
    const before = Number(await members.textContent());
    const userId = await createUser(ui, "newcomer", "Viewer", {
      email: null,
      password: "Newcomer-Password-1",
    });
    const { roles } = await gqlOk<{ roles: { id: number; name: string }[] }>(ui, "{ roles { id name } }");
    await addProjectMember(ui, "default", userId, roles.find((r) => r.name === "Member")?.id as number);
    await expect.poll(async () => Number(await members.textContent())).toBe(before + 1);

    await gqlOk(ui, `mutation { createEnvironment(input: { name: "staging", type: "test" }) { name } }`);
    await page.getByRole("region", { name: "Environments" }).getByText("staging").waitFor();
  });
});
