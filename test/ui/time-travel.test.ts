import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

const HOUR = 3_600_000;
const FLAG = "tt-flag";

describe.skipIf(!hasChromium)("web UI: time travel", () => {
  let ui: UiHarness;
  let page: Page;
  // Enabled at T1, disabled at T2; T1 is some seconds past a minute, as the datetime field shows minutes.
  const t1 = new Date(Math.floor((Date.now() - 48 * HOUR) / 60_000) * 60_000 + 10_000);
  const t2 = new Date(t1.getTime() + 24 * HOUR);

  const ok = async (query: string) => {
    const result = await ui.gql(query);
    expect(result.errors).toBeUndefined();
    return result.data as Record<string, any>;
  };
  const enabledInDevelopment = async () => {
    const data = await ok(`{ feature(name: "${FLAG}") { environments { name enabled } } }`);
    return data.feature.environments.find((e: { name: string }) => e.name === "development")
      .enabled as boolean;
  };

  beforeAll(async () => {
    ui = await startUi();
    ui.setNow(new Date(t1.getTime() - 60_000));
    await ok(`mutation { createFeature(project: "default", input: { name: "${FLAG}" }) { id } }`);
    ui.setNow(t1);
    await ok(`mutation { enableFeatureEnvironment(project: "default", feature: "${FLAG}",
      environment: "development") { id } }`);
    ui.setNow(t2);
    await ok(`mutation { disableFeatureEnvironment(project: "default", feature: "${FLAG}",
      environment: "development") { id } }`);
    ui.setNow(null);
    page = await ui.signedIn(undefined, "/time-travel?project=default&environment=development");
    page.on("dialog", (dialog) => void dialog.accept());
  }, 60_000);
  afterAll(() => ui?.close());

  const flagState = () =>
    page
      .getByRole("row", { name: new RegExp(FLAG) })
      .getByRole("cell")
      .first()
      .textContent();
  /** Types an instant into a date-and-time field, in the browser's time zone, to the minute. */
  const typeInstant = async (label: string, date: Date) => {
    const local = await page.evaluate((iso) => {
      const d = new Date(iso);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    }, date.toISOString());
    await page.getByLabel(label).fill(local);
  };

  it("shows the flag enabled at T1 and disabled now, with the slider and the date field", async () => {
    await typeInstant("Instant: date and time", new Date(t1.getTime() + 60_000));
    await expect.poll(flagState).toBe("enabled");
    const slider = page.getByLabel("Instant: last 30 days");
    await slider.focus();
    await page.keyboard.press("End");
    await expect.poll(flagState).toBe("disabled");
    await page.keyboard.press("ArrowLeft");
    expect(await slider.getAttribute("aria-valuetext")).toBeTruthy();
  });

  it("lists what changed between two instants", async () => {
    await typeInstant("Instant: date and time", new Date(t1.getTime() + 60_000));
    await expect.poll(flagState).toBe("enabled");
    const changes = page.getByRole("region", { name: "Changes" });
    await changes.getByText(FLAG).waitFor();
    await changes.getByText("Disabled").waitFor();
    await typeInstant("Compare to: date and time", new Date(t1.getTime() + 2 * HOUR));
    await changes.getByText("Nothing changed in between.").waitFor();
  });

  it("restores the flag, then the environment, to that instant", async () => {
    expect(await enabledInDevelopment()).toBe(false);
    await page.getByRole("button", { name: `Restore ${FLAG} to this instant` }).click();
    await page
      .getByRole("status")
      .getByText(/Restored: [1-9]/)
      .waitFor();
    await expect.poll(enabledInDevelopment).toBe(true);

    await ok(`mutation { disableFeatureEnvironment(project: "default", feature: "${FLAG}",
      environment: "development") { id } }`);
    await page.getByRole("button", { name: "Restore environment to this instant" }).click();
    await expect.poll(enabledInDevelopment).toBe(true);
    expect(ui.externalRequests).toEqual([]);
  });
});
