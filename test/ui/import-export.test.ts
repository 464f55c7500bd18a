import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStrategy, createFlag, createProject, gqlOk } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** The export and import page: a download of Unleash's export document, and an import validated first (issue 40.6). */
describe.skipIf(!hasChromium)("web UI: export and import", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    await createFlag(ui, "exported-flag");
    await addStrategy(ui, "exported-flag", { name: "default", title: "All" }, "development");
    await createProject(ui, "target", { name: "Target" });
  });
  afterAll(() => ui?.close());

  it("exports a project's flags as a download", async () => {
    const page = await ui.signedIn(undefined, "/");
    await page.getByRole("link", { name: "Export and import" }).click();
    const form = page.getByRole("form", { name: "Export" });
    await form.getByLabel("Environment to export").selectOption("development");
    await form.getByLabel("Project to export").selectOption({ label: "Default" });
    await form.getByRole("button", { name: "Export" }).click();
    const link = form.getByRole("link", { name: "Download the export" });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("vexil-export.json");
    const document = JSON.parse(await readFile(await download.path(), "utf8"));
    expect(document.features.map((f: { name: string }) => f.name)).toContain("exported-flag");
  });

  it("validates a document, shows what it finds, and imports it on confirmation", async () => {
    const { exportFeatures } = await gqlOk<{ exportFeatures: unknown }>(
      ui,
      `{ exportFeatures(environment: "development", features: ["exported-flag"]) }`,
    );
    const renamed = JSON.stringify(exportFeatures).replaceAll("exported-flag", "imported-flag");
    const page = await ui.signedIn(undefined, "/import-export");
    const form = page.getByRole("form", { name: "Import" });
    await form.getByLabel("Into project").selectOption({ label: "Target" });
    await form.getByLabel("Into environment").selectOption("development");

    await form.getByLabel("Or paste the document").fill("{not json");
    await form.getByRole("button", { name: "Validate" }).click();
    await page.getByText("The document is not JSON.").waitFor();

    await form.getByLabel("Or paste the document").fill(renamed);
    await form.getByRole("button", { name: "Validate" }).click();
    const validation = page.getByRole("region", { name: "Validation" });
    await validation.getByText("The document can be imported.").waitFor();
    await validation.getByRole("button", { name: "Import" }).click();
    await page.getByRole("status").filter({ hasText: "Imported: 1 created, 0 updated" }).waitFor();
    const { projectFeature } = await gqlOk<{ projectFeature: { project: string } }>(
      ui,
      `{ projectFeature(project: "target", name: "imported-flag") { project } }`,
    );
    expect(projectFeature.project).toBe("target");
  });
});
