import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlag, disableFlag, enableFlag, gqlOk } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

const FLAG = "tt-flag";

/** Returns once the wall clock is past `instant` (history is stamped with real time). */
async function clockPast(instant: Date) {
  while (Date.now() <= instant.getTime()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.skipIf(!hasChromium)("web UI: time travel", () => {
  let ui: UiHarness;
  let page: Page;
  /** A whole second between the flag's enabling and its disabling (the date field shows seconds). */
  let t1: Date;

  const toggle = (on: boolean) => (on ? enableFlag : disableFlag)(ui, FLAG, "development");
  const enabledInDevelopment = async () => {
    const data = await gqlOk(ui, `{ feature(name: "${FLAG}") { environments { name enabled } } }`);
    return data.feature.environments.find((e: { name: string }) => e.name === "development")
      .enabled as boolean;
  };

  beforeAll(async () => {
    ui = await startUi();
    await createFlag(ui, FLAG);
    await toggle(true);
    t1 = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
    // A datetime-local field drops ":00" seconds; keep T1 off the minute so it reads back as typed.
    if (t1.getUTCSeconds() === 0) t1 = new Date(t1.getTime() + 1000);
    await clockPast(t1);
    await toggle(false);
    // "Now" must read as another second than T1 in the date field (it shows seconds), or typing
    // T1 after the slider went to now changes nothing.
    await clockPast(new Date(t1.getTime() + 1000));
    page = await ui.signedIn(undefined, "/time-travel?project=default&environment=development");
    page.on("dialog", (dialog) => void dialog.accept());
  }, 120_000);
  afterAll(() => ui?.close());

  const flagState = () =>
    page
      .getByRole("row", { name: new RegExp(FLAG) })
      .getByRole("cell")
      .first()
      .textContent();
  /** Types an instant into a date-and-time field, in the browser's time zone, to the second. */
  const typeInstant = async (label: string, date: Date) => {
    const local = await page.evaluate((iso) => {
      const d = new Date(iso);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    }, date.toISOString());
    await page.getByLabel(label).fill(local);
  };

  it("shows the flag enabled at T1 and disabled now, with the date field and the slider", async () => {
    await typeInstant("Instant: date and time", t1);
    await expect.poll(flagState).toBe("enabled");
    expect(new URL(page.url()).searchParams.get("at")).toBe(t1.toISOString());
    const slider = page.getByLabel("Instant: last 30 days");
    await slider.focus();
    await page.keyboard.press("Home");
    await page.getByText("No flag existed then.").waitFor();
    expect(await slider.getAttribute("aria-valuetext")).toBeTruthy();
    await page.keyboard.press("End");
    await expect.poll(flagState).toBe("disabled");
  });

  it("lists what changed between two instants", async () => {
    await typeInstant("Instant: date and time", t1);
    await expect.poll(flagState).toBe("enabled");
    const changes = page.getByRole("region", { name: "Changes" });
    await changes.getByText(FLAG, { exact: true }).waitFor();
    await changes.getByText(/^Disabled$/).waitFor();
    expect(await changes.getByText(/^Enabled$/).count()).toBe(0);
  });

  it("restores the flag, then the environment, to that instant", async () => {
    await typeInstant("Instant: date and time", t1);
    await expect.poll(flagState).toBe("enabled");
    expect(await enabledInDevelopment()).toBe(false);
    await page.getByRole("button", { name: `Restore ${FLAG} to this instant` }).click();
    await page
      .getByRole("status")
      .getByText(/Restored: [1-9]/)
      .waitFor();
    await expect.poll(enabledInDevelopment).toBe(true);

    await toggle(false);
    await page.getByRole("button", { name: "Restore environment to this instant" }).click();
    await expect.poll(enabledInDevelopment).toBe(true);
    expect(ui.externalRequests).toEqual([]);
    // Off again, as the other tests expect the flag now.
    await toggle(false);
  });

  it("the flag page has a slider: the flag as it was at T1, and before it existed", async () => {
    const flagPage = await ui.signedIn(undefined, `/projects/default/flags/${FLAG}`);
    const asItWas = flagPage.getByRole("region", { name: "Flag as it was" });
    const local = await flagPage.evaluate((iso) => {
      const d = new Date(iso);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    }, t1.toISOString());
    await flagPage.getByLabel("Flag as of: date and time").fill(local);
    await expect
      .poll(() =>
        asItWas
          .getByRole("row", { name: /development/ })
          .locator(".badge")
          .textContent(),
      )
      .toBe("on");
    await flagPage.getByLabel("Flag as of: last 30 days").focus();
    await flagPage.keyboard.press("Home");
    await asItWas.getByText(/did not exist/).waitFor();
  });

  it("the event log has a slider: the log as it was at T1, without live updates, then back to now", async () => {
    const log = await ui.signedIn(undefined, `/events?feature=${FLAG}`);
    // The page's text, not the table's: a log with no event has no table to wait for.
    const main = () => log.locator("main").textContent();
    await expect.poll(main).toContain("feature-environment-disabled");
    const local = await log.evaluate((iso) => {
      const d = new Date(iso);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    }, t1.toISOString());
    await log.getByLabel("Log as of: date and time").fill(local);
    await expect.poll(() => new URL(log.url()).searchParams.get("until")).toBe(t1.toISOString());
    await log.getByText("As it was: live updates off").waitFor();
    // At T1: created, strategy added, enabled; the disabling came after.
    await expect.poll(main).toMatch(/(^|\D)3 events/);
    expect(await main()).toContain("feature-environment-enabled");
    expect(await main()).not.toContain("feature-environment-disabled");
    await log.getByRole("button", { name: "Back to now" }).click();
    await expect.poll(main).toContain("feature-environment-disabled");
  });
});
