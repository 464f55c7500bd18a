import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

describe.skipIf(!hasChromium)("web UI: personal dashboard", { timeout: 60_000 }, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  it("lists the flags the user created, their latest events and the user's projects", async () => {
    const page = await ui.signedIn(undefined, "/flags");
    await page.getByLabel("New flag name").fill("my-dashboard-flag");
    await page.getByRole("button", { name: "Create flag" }).click();
    await page.getByRole("link", { name: "my-dashboard-flag" }).waitFor();

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    const flags = page.getByRole("region", { name: "My flags" });
    await flags.getByRole("link", { name: "my-dashboard-flag" }).waitFor();
    await flags
      .getByText(/feature-created|Flag created/)
      .first()
      .waitFor();
    await page.getByRole("region", { name: "My projects" }).waitFor();
    expect(await flags.getByRole("link", { name: "my-dashboard-flag" }).getAttribute("href")).toBe(
      "/projects/default/flags/my-dashboard-flag",
    );
    expect(ui.externalRequests).toEqual([]);
  });
});
