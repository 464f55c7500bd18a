import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStrategy, createFlag, enableFlag } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** The playground page: every flag's answer for a context, with why, following changes live (issue 40.5). */
describe.skipIf(!hasChromium)("web UI: the playground", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    await createFlag(ui, "beta-feature");
    await addStrategy(
      ui,
      "beta-feature",
      { name: "userWithId", parameters: { userIds: "alice" } },
      "development",
    );
    await enableFlag(ui, "beta-feature", "development");
    await createFlag(ui, "dark-launch");
  });
  afterAll(() => ui?.close());

  it("answers every flag for a context, says why, and follows a toggle made elsewhere", async () => {
    const page = await ui.signedIn(undefined, "/");
    await page.getByRole("link", { name: "Playground" }).click();
    const form = page.getByRole("form", { name: "Context" });
    await form.getByLabel("Environment").selectOption("development");
    await form.getByLabel("userId").fill("alice");
    await form.getByRole("button", { name: "Evaluate" }).click();

    const row = (flag: string) =>
      page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: flag }) });
    await row("beta-feature").waitFor();
    expect(await row("beta-feature").getByRole("cell").allTextContents()).toEqual([
      "on",
      "—",
      "a strategy matched: userWithId",
    ]);
    expect(await row("dark-launch").getByRole("cell").allTextContents()).toEqual([
      "off",
      "—",
      "the flag is off in this environment",
    ]);

    await form.getByLabel("userId").fill("bob");
    await form.getByRole("button", { name: "Evaluate" }).click();
    await expect.poll(() => row("beta-feature").getByRole("cell").first().textContent()).toBe("off");

    await enableFlag(ui, "dark-launch", "development");
    await expect.poll(() => row("dark-launch").getByRole("cell").first().textContent()).toBe("on");
    // Enabling it gave it the project's default strategy, as Unleash does.
    expect(await row("dark-launch").getByRole("cell").last().textContent()).toBe(
      "a strategy matched: flexibleRollout",
    );
  });
});
