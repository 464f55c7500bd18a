import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

describe.skipIf(!hasChromium)("web UI: log in and flags", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  it("refuses a wrong password with the API's message, then logs in and out", async () => {
    const page = await ui.page("/");
    await page.getByLabel("Username or email").fill("admin");
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/password/i);
    await page.getByLabel("Password").fill("Admin-Password-1");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("heading", { name: "Flags" }).waitFor();
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("heading", { name: "Log in to Vexil" }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Log in to Vexil" }).waitFor();
  });

  it("creates a flag, lists it and opens a deep link after a reload", async () => {
    const page = await ui.signedIn(undefined, "/flags");
    await page.getByLabel("New flag name").fill("checkout-v2");
    await page.getByRole("button", { name: "Create flag" }).click();
    await page.getByRole("link", { name: "checkout-v2" }).waitFor();

    await page.getByLabel("New flag name").fill("bad name with spaces");
    await page.getByRole("button", { name: "Create flag" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/name/i);

    await page.reload();
    await page.getByRole("link", { name: "checkout-v2" }).waitFor();
    expect(ui.externalRequests).toEqual([]);
  });
});
