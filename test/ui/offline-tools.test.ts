import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** The REST reference renders and works in a browser with no request leaving the machine. */
describe.skipIf(!hasChromium)("the REST reference, offline", { timeout: 120_000 }, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  it("the REST reference groups operations by tag, searches them and shows examples", async () => {
    const page = await ui.page("/docs");
    await page.getByRole("heading", { name: "Features" }).first().waitFor({ timeout: 60_000 });
    await page.getByRole("heading", { name: "Auth" }).first().waitFor();
    const filter = page.getByPlaceholder(/filter/i);
    await filter.fill("lifecycle stages");
    await expect
      .poll(() => page.locator(".opblock-tag").allTextContents())
      .toEqual([expect.stringMatching(/^Features/)]);
    await page.locator(".opblock-tag").first().click();
    await expect
      .poll(() => page.locator(".opblock-summary-path").allTextContents())
      .toEqual(["/api/admin/projects/{projectId}/features/{featureName}/lifecycle"]);
    await page.locator(".opblock-summary").first().click();
    await page.getByText("Example Value").first().waitFor();
    expect(ui.externalRequests).toEqual([]);
  });
});
