import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlag, enableFlag } from "../helpers/builders.ts";
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

  it("a project's insights: health with its stale flags, lead time to production, flag types, activity", async () => {
    await createFlag(ui, "insight-live", { type: "release" });
    await enableFlag(ui, "insight-live", "production");
    await createFlag(ui, "insight-stale", { type: "operational" });
    expect(
      (
        await ui.rest("PATCH", "/api/admin/projects/default/features/insight-stale", [
          { op: "replace", path: "/stale", value: true },
        ])
      ).status,
    ).toBe(200);

    const page = await ui.signedIn(undefined, "/projects/default");
    await page.getByRole("link", { name: "Insights" }).click();
    await page.getByRole("heading", { level: 1, name: "Insights: Default" }).waitFor();
    const health = page.getByRole("region", { name: "Health" });
    const staleRow = health
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "insight-stale" }) });
    expect(await staleRow.getByRole("cell").allTextContents()).toEqual(["operational", "marked stale"]);
    await health.getByText(/1 stale/).waitFor();

    const leadTime = page.getByRole("region", { name: "Lead time to production" });
    await leadTime.getByText(/On average \d+\.\d days from creation/).waitFor();
    await leadTime.getByRole("rowheader", { name: "insight-live" }).waitFor();

    const types = page.getByRole("region", { name: "Flag types" });
    const release = types.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "release" }) });
    expect(Number((await release.getByRole("cell").allTextContents())[0])).toBeGreaterThanOrEqual(1);
    const created = page
      .getByRole("region", { name: "Activity" })
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "Flags created" }) });
    expect(Number((await created.getByRole("cell").allTextContents())[0])).toBeGreaterThanOrEqual(2);

    // Live: a flag marked stale elsewhere shows without a reload.
    await ui.rest("PATCH", "/api/admin/projects/default/features/insight-live", [
      { op: "replace", path: "/stale", value: true },
    ]);
    await health.getByRole("rowheader", { name: "insight-live" }).waitFor();
  });
});
