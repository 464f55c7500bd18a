import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlag, createFlags, createProject } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

const BULK = 12;
const bulkName = (i: number) => `bulk-${String(i).padStart(2, "0")}`;

describe.skipIf(!hasChromium)("web UI: flag list", () => {
  let ui: UiHarness;
  let page: Page;
  /** The page's first size: the narrow-screen test changes it. */
  let viewport: { width: number; height: number } | null = null;

  /**
   * Filters live in the URL: a checkbox shows its new state once the navigation it starts has
   * rendered, which Playwright's check() does not wait for on a busy machine.
   */
  async function setChecked(label: string, checked: boolean) {
    const box = page.getByLabel(label);
    if ((await box.isChecked()) !== checked) await box.click();
    await expect.poll(() => box.isChecked()).toBe(checked);
  }

  beforeAll(async () => {
    ui = await startUi();
    await createProject(ui, "payments", { name: "Payments" });
    await createFlags(
      ui,
      Array.from({ length: BULK }, (_, i) => bulkName(i)),
    );
    await createFlag(ui, "kill-old", { type: "kill-switch" });
    await createFlag(ui, "pay-checkout", {
      project: "payments",
      type: "experiment",
      tags: [{ type: "simple", value: "checkout" }],
      enabledIn: ["production"],
    });
    page = await ui.signedIn(undefined, "/flags?size=10");
    viewport = page.viewportSize();
    await page.getByText(`${BULK + 2} flags`).waitFor();
  }, 120_000);
  afterAll(() => ui?.close());

  const count = () => page.locator(".count").textContent();
  const firstFlag = () => page.getByRole("row").nth(1).getByRole("link").first().textContent();
  const openFilters = async () => {
    const summary = page.getByText("Filters", { exact: true });
    if (!(await page.getByLabel("Project", { exact: true }).isVisible())) await summary.click();
  };
  /** The list as a test starts from: its first size, no filter, sort or page in the URL. */
  const freshList = async () => {
    if (viewport) await page.setViewportSize(viewport);
    await page.goto("/flags?size=10");
    await expect.poll(count).toBe(`${BULK + 2} flags`);
  };
  const clear = async () => {
    await openFilters();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(count).toBe(`${BULK + 2} flags`);
  };

  it("narrows the list with each filter and keeps them in the URL across a reload", async () => {
    await freshList();
    await page.getByLabel("Search", { exact: true }).fill("checkout");
    await expect.poll(count).toBe("1 flag");
    await page.getByRole("link", { name: "pay-checkout" }).waitFor();
    await page.getByLabel("Search", { exact: true }).fill("");
    await expect.poll(count).toBe(`${BULK + 2} flags`);

    await openFilters();
    await page.getByLabel("Type", { exact: true }).selectOption("kill-switch");
    await expect.poll(count).toBe("1 flag");
    await page.getByRole("link", { name: "kill-old" }).waitFor();
    await page.getByLabel("Type operator").selectOption("IS_NONE_OF");
    await expect.poll(count).toBe(`${BULK + 1} flags`);
    await clear();

    await openFilters();
    await page.getByLabel("Tags", { exact: true }).selectOption("simple:checkout");
    await expect.poll(count).toBe("1 flag");
    await clear();

    await openFilters();
    await page.getByLabel("In production").selectOption("enabled");
    await expect.poll(count).toBe("1 flag");
    await page.getByLabel("In production").selectOption("disabled");
    await expect.poll(count).toBe(`${BULK + 1} flags`);
    await clear();

    await openFilters();
    await page.getByLabel("Project", { exact: true }).selectOption("payments");
    await expect.poll(count).toBe("1 flag");
    await page.getByLabel("Created day").fill("2000-01-01");
    await page.getByLabel("Created when").selectOption("IS_BEFORE");
    await expect.poll(count).toBe("0 flags");
    await page.getByLabel("Created when").selectOption("IS_ON_OR_AFTER");
    await expect.poll(count).toBe("1 flag");
    await setChecked("Archived flags", true);
    await expect.poll(count).toBe("0 flags");
    await setChecked("Archived flags", false);
    expect(new URL(page.url()).searchParams.getAll("project")).toEqual(["payments"]);

    await page.reload();
    await expect.poll(count).toBe("1 flag");
    const chosen = await page
      .getByLabel("Project", { exact: true })
      .evaluate((select: HTMLSelectElement) => [...select.selectedOptions].map((o) => o.value));
    expect(chosen).toEqual(["payments"]);
    expect(await page.getByLabel("Created day").inputValue()).toBe("2000-01-01");
    await clear();
  });

  it("sorts by every field, both ways", async () => {
    await freshList();
    expect(await firstFlag()).toBe("bulk-00");
    await page.getByLabel("Sort by").selectOption("NAME");
    await page.getByLabel("Direction").selectOption("DESC");
    await expect.poll(firstFlag).toBe("pay-checkout");
    await page.getByLabel("Sort by").selectOption("TYPE");
    await expect.poll(firstFlag).toBe("bulk-00"); // release > kill-switch > experiment
    await page.getByLabel("Direction").selectOption("ASC");
    await expect.poll(firstFlag).toBe("pay-checkout");
    await page.getByLabel("Sort by").selectOption("ENVIRONMENT:production");
    await page.getByLabel("Direction").selectOption("DESC");
    await expect.poll(firstFlag).toBe("pay-checkout");
    await page.getByLabel("Sort by").selectOption("CREATED_AT");
    await expect.poll(firstFlag).toBe("pay-checkout");
    await page.getByLabel("Direction").selectOption("ASC");
    await expect.poll(firstFlag).toBe("bulk-00");
  });

  it("pages forwards and backwards with cursors", async () => {
    await freshList();
    const previous = page.getByRole("button", { name: "Previous page" });
    const next = page.getByRole("button", { name: "Next page" });
    expect(await previous.isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole("row").count()).toBe(11);
    await next.click();
    await page.getByRole("link", { name: "pay-checkout" }).waitFor();
    expect(await page.getByRole("row").count()).toBe(BULK + 2 - 10 + 1);
    expect(await firstFlag()).toBe(bulkName(10));
    expect(await next.isDisabled()).toBe(true);
    expect(new URL(page.url()).searchParams.has("after")).toBe(true);
    await previous.click();
    await expect.poll(firstFlag).toBe("bulk-00");
    await expect.poll(() => page.getByRole("row").count()).toBe(11);
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isDisabled()).toBe(false);
    expect(await count()).toBe(`${BULK + 2} flags`);
  });

  it("favourites a flag from the list and puts favourites first", async () => {
    await freshList();
    const star = page.getByRole("button", { name: "Favourite bulk-01" });
    expect(await star.getAttribute("aria-pressed")).toBe("false");
    await star.click();
    await expect.poll(() => star.getAttribute("aria-pressed")).toBe("true");
    await setChecked("Favourites first", true);
    await expect.poll(firstFlag).toBe("bulk-01");
    await setChecked("Favourites only", true);
    await expect.poll(count).toBe("1 flag");
    await star.click();
    await expect.poll(count).toBe("0 flags");
    await page.getByText("No flag matches these filters.").waitFor();
    expect(ui.externalRequests).toEqual([]);
  });

  it("is readable 390 px wide", async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/flags?size=100");
    await page.getByRole("link", { name: "bulk-00" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(ui.externalRequests).toEqual([]);
  });
});
