import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/app.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** GraphiQL and the REST reference render and work in a browser with no request leaving the machine. */
describe.skipIf(!hasChromium)("GraphiQL and the REST reference, offline", { timeout: 120_000 }, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  it("GraphiQL renders from npm packages and runs a query with a token", async () => {
    const page = await ui.page("/graphql");
    await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Headers" }).click();
    const headers = page.getByRole("region", { name: "Headers" }).getByRole("code");
    await headers.locator("textarea").focus();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(JSON.stringify({ Authorization: ADMIN_TOKEN }));
    await expect.poll(() => headers.textContent()).toContain(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).click();
    const response = page.getByRole("region", { name: "Result Window" });
    await expect.poll(() => response.textContent(), { timeout: 20_000 }).toContain("totalCount");
    expect(await response.textContent()).not.toContain("errors");
    // The schema could not be read without a credential; the query that worked brings it.
    await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
    await page.getByRole("link", { name: "Query" }).first().waitFor();
    expect(ui.externalRequests).toEqual([]);
  });

  it("GraphiQL uses the UI's session: no header to fill in, and the docs load at once", async () => {
    const page = await ui.signedIn(undefined, "/");
    await page.goto("/graphql");
    await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Show Documentation Explorer" }).click();
    await page.getByRole("link", { name: "Query" }).first().waitFor();
    await page.getByRole("button", { name: "Execute query (Ctrl-Enter)" }).click();
    const response = page.getByRole("region", { name: "Result Window" });
    await expect.poll(() => response.textContent(), { timeout: 20_000 }).toContain("totalCount");
    expect(await response.textContent()).not.toContain("errors");
  });

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
