import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlag, gqlOk } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** Custom strategy types: defined on their page, then used in a flag's strategy form (issue 40.6). */
describe.skipIf(!hasChromium)("web UI: strategy types", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  it("creates a custom type, uses it in a strategy, and deprecates it", async () => {
    const page = await ui.signedIn(undefined, "/");
    await page.getByRole("link", { name: "Strategy types" }).click();
    await page.getByRole("rowheader", { name: /flexibleRollout/ }).waitFor();
    const form = page.getByRole("form", { name: "New strategy type" });
    await form.getByLabel("Strategy type name").fill("region-rollout");
    await form.getByLabel("Title").fill("By region");
    await form.getByRole("button", { name: "Add parameter" }).click();
    await form.getByLabel("Name of parameter 1").fill("regions");
    await form.getByLabel("Type of parameter 1").selectOption("list");
    await form.getByLabel("Required").check();
    await form.getByRole("button", { name: "Create strategy type" }).click();
    await page.getByRole("rowheader", { name: /By region/ }).waitFor();
    const { strategyDefinition } = await gqlOk<{ strategyDefinition: unknown }>(
      ui,
      `{ strategyDefinition(name: "region-rollout") { title editable parameters { name type required } } }`,
    );
    expect(strategyDefinition).toEqual({
      title: "By region",
      editable: true,
      parameters: [{ name: "regions", type: "list", required: true }],
    });

    await createFlag(ui, "regional-flag");
    await page.goto("/projects/default/flags/regional-flag");
    await page.getByRole("button", { name: "Add strategy in development" }).click();
    const strategy = page.getByRole("form", { name: "New strategy in development" });
    await strategy.getByLabel("Strategy type").selectOption("region-rollout");
    await strategy.getByLabel("regions (required)").fill("eu,us");
    await strategy.getByRole("button", { name: "Save strategy" }).click();
    await strategy.waitFor({ state: "detached" });
    const { projectFeature } = await gqlOk<{
      projectFeature: {
        environments: { name: string; strategies: { name: string; parameters: unknown }[] }[];
      };
    }>(
      ui,
      `{ projectFeature(project: "default", name: "regional-flag") { environments { name strategies { name parameters } } } }`,
    );
    expect(projectFeature.environments.find((e) => e.name === "development")?.strategies).toEqual([
      { name: "region-rollout", parameters: { regions: "eu,us" } },
    ]);

    await page.goto("/strategy-types");
    await page.getByRole("button", { name: "Deprecate region-rollout" }).click();
    await page.getByRole("button", { name: "Reactivate region-rollout" }).waitFor();
  });
});
