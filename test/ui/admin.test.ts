import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiToken, createFlag } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

describe.skipIf(!hasChromium)("web UI: administration (catalogue)", () => {
  let ui: UiHarness;
  /** One signed-in admin for every test: each starts from its page's URL. */
  let page: Page;
  beforeAll(async () => {
    ui = await startUi();
    page = await ui.signedIn();
  });
  afterAll(() => ui?.close());

  it("creates an environment and a project, and enables the environment for the project", async () => {
    await page.goto("/environments");
    await page.getByLabel("Environment name").fill("staging");
    await page.getByLabel("Type", { exact: true }).fill("test");
    await page.getByLabel("Sort order", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Create environment" }).click();
    await page.getByRole("rowheader", { name: "staging" }).waitFor();

    await page.getByLabel("Sort order of staging").fill("7");
    await page.getByRole("button", { name: "Save staging" }).click();
    await expect
      .poll(
        async () =>
          (await ui.gql<any>(`{ environment(name: "staging") { type sortOrder } }`)).data?.environment,
      )
      .toEqual({ type: "test", sortOrder: 7 });

    await page.getByRole("link", { name: "Projects" }).click();
    await page.getByLabel("Project name").fill("Checkout");
    await page.getByLabel("Project id (optional)").fill("checkout");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("link", { name: "Checkout" }).click();
    await page.getByRole("heading", { name: "Project Checkout" }).waitFor();

    const staging = page.getByRole("checkbox", { name: /^staging/ });
    await staging.check();
    await expect
      .poll(async () => {
        const { data } = await ui.gql<any>(`{ project(id: "checkout") { environments { name } } }`);
        return data?.project.environments.map((e: { name: string }) => e.name);
      })
      .toContain("staging");

    await page.getByLabel("Require change requests in staging").check();
    await page.getByLabel("Approvals needed in staging").fill("2");
    await page.getByRole("button", { name: "Save staging" }).click();
    await expect
      .poll(async () => {
        const { data } = await ui.gql<any>(
          `{ changeRequestConfig(project: "checkout") { environment requiredApprovals } }`,
        );
        return data?.changeRequestConfig.find((c: { environment: string }) => c.environment === "staging");
      })
      .toEqual({ environment: "staging", requiredApprovals: 2 });
  });

  it("adds and removes a project member, favourites, archives and revives the project", async () => {
    // A project of its own (the first test makes "checkout" through the UI).
    const created = await ui.gql<any>(
      `mutation { createProject(input: { id: "crew", name: "Crew" }) { id: databaseId } }`,
    );
    expect(created.errors).toBeUndefined();
    await page.goto("/projects/crew");
    const addMember = page.getByRole("form", { name: "Add member" });
    await addMember.getByLabel("User").selectOption({ label: "admin" });
    await addMember.getByLabel("Role").selectOption({ label: "Member" });
    await addMember.getByRole("button", { name: "Add member" }).click();
    const remove = page.getByRole("button", { name: "Remove admin (Member)" });
    await remove.waitFor();
    const memberRoles = async () => {
      const { data } = await ui.gql<any>(`{ users { username projectRoles { projectId role { name } } } }`);
      const admin = data?.users.find((u: { username: string }) => u.username === "admin");
      return admin?.projectRoles
        .filter((r: { projectId: string }) => r.projectId === "crew")
        .map((r: any) => r.role.name);
    };
    expect(await memberRoles()).toEqual(["Member"]);
    page.once("dialog", (dialog) => void dialog.accept());
    await remove.click();
    await expect.poll(() => remove.count()).toBe(0);
    expect(await memberRoles()).toEqual([]);

    await page.getByRole("link", { name: "All projects" }).click();
    const favourite = page.getByRole("button", { name: "Favourite Crew" });
    await favourite.click();
    await expect.poll(() => favourite.getAttribute("aria-pressed")).toBe("true");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Archive Crew" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Crew" }).count()).toBe(0);
    await page.getByLabel("Show archived projects").check();
    await page.getByRole("button", { name: "Revive Crew" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Crew" }).count()).toBe(0);
    await page.getByLabel("Show archived projects").uncheck();
    await page.getByRole("link", { name: "Crew" }).waitFor();
  });

  it("shows the API's validation error next to its field", async () => {
    await page.goto("/projects");
    await page.getByLabel("Project name").fill("Bad");
    await page.getByLabel("Project id (optional)").fill("bad id with spaces");
    await page.getByRole("button", { name: "Create project" }).click();
    const idField = page.getByLabel("Project id (optional)");
    await expect.poll(() => idField.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await idField.getAttribute("aria-describedby");
    await expect.poll(() => page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/URL-friendly/i);
  });

  it("creates a context field with legal values, then a segment constrained on it", async () => {
    await page.goto("/context-fields");
    await page.getByRole("button", { name: "New context field" }).click();
    await page.getByLabel("Field name").fill("region");
    await page.getByLabel("Usable as stickiness").check();
    await page.getByRole("button", { name: "Add legal value" }).click();
    await page.getByLabel("Legal value 1").fill("eu");
    await page.getByLabel("Description of value 1").fill("Europe");
    await page.getByRole("button", { name: "Add legal value" }).click();
    await page.getByLabel("Legal value 2").fill("us");
    await page.getByRole("button", { name: "Create context field" }).click();
    await page.getByRole("rowheader", { name: "region" }).waitFor();
    const { data: field } = await ui.gql<any>(
      `{ contextField(name: "region") { stickiness legalValues { value description } } }`,
    );
    expect(field?.contextField).toEqual({
      stickiness: true,
      legalValues: [
        { value: "eu", description: "Europe" },
        { value: "us", description: null },
      ],
    });

    await page.getByRole("link", { name: "Segments" }).click();
    await page.getByRole("button", { name: "New segment" }).click();
    await page.getByLabel("Segment name").fill("europeans");
    await page.getByRole("button", { name: "Add constraint" }).click();
    const constraint = page.getByRole("group", { name: "Constraint 1" });
    await constraint.getByLabel("Context field").selectOption("region");
    await constraint.getByLabel("Operator").selectOption("IN");
    await constraint.getByRole("checkbox", { name: /^eu/ }).check();
    await constraint.getByLabel("Inverted (NOT)").check();
    await page.getByRole("button", { name: "Create segment" }).click();
    await page.getByRole("rowheader", { name: /europeans/ }).waitFor();
    const { data } = await ui.gql<any>(
      `{ segments { name project constraints { contextName operator values inverted caseInsensitive } } }`,
    );
    expect(data?.segments.find((s: { name: string }) => s.name === "europeans")).toEqual({
      name: "europeans",
      project: null,
      constraints: [
        { contextName: "region", operator: "IN", values: ["eu"], inverted: true, caseInsensitive: false },
      ],
    });

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete europeans" }).click();
    await page.getByText("No segments yet.").waitFor();
  });

  it("creates, edits and deletes a tag type", async () => {
    await page.goto("/tag-types");
    await page.getByLabel("Tag type name").fill("team");
    await page.getByLabel("Description").fill("Owning team");
    await page.getByRole("button", { name: "Create tag type" }).click();
    await page.getByRole("rowheader", { name: "team" }).waitFor();
    await page.getByRole("button", { name: "Edit team" }).click();
    const form = page.getByRole("form", { name: "Edit tag type team" });
    await form.getByLabel("Colour").fill("#1a2b3c");
    await form.getByRole("button", { name: "Save tag type" }).click();
    await expect
      .poll(async () => (await ui.gql<any>(`{ tagType(name: "team") { description color } }`)).data?.tagType)
      .toEqual({ description: "Owning team", color: "#1a2b3c" });
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete team" }).click();
    await expect.poll(() => page.getByRole("rowheader", { name: "team" }).count()).toBe(0);
    expect(ui.externalRequests).toEqual([]);
  });

  it("deprecates and undeprecates, clones with the flags' configuration, and deletes an environment", async () => {
    await createFlag(ui, "env-page-flag", {
      strategies: [{ environment: "production", name: "default" }],
      enabledIn: ["production"],
    });
    await page.goto("/environments");
    const production = page
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "production" }) });
    await production.getByRole("button", { name: "Deprecate production" }).click();
    await production.getByText("deprecated", { exact: true }).waitFor();
    await production.getByRole("button", { name: "Undeprecate production" }).click();
    await production.getByText("enabled", { exact: true }).waitFor();

    await page.getByLabel("Name of the copy of production").fill("prod-copy");
    await page.getByRole("button", { name: "Clone production" }).click();
    await page.getByRole("rowheader", { name: "prod-copy" }).waitFor();
    const copied = await ui.gql<any>(
      `{ projectFeature(project: "default", name: "env-page-flag") { environments { name enabled strategies { name } } } }`,
    );
    expect(
      copied.data.projectFeature.environments.find((e: { name: string }) => e.name === "prod-copy"),
    ).toEqual({
      name: "prod-copy",
      enabled: true,
      strategies: [{ name: "default" }],
    });

    // A token for it blocks the deletion, said in place; without it the environment goes.
    await apiToken(ui, "client", "prod-copy", ["*"], "prod-copy-sdk");
    page.once("dialog", (dialog) => void dialog.accept());
    const copyRow = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "prod-copy" }) });
    await copyRow.getByRole("button", { name: "Delete prod-copy" }).click();
    await copyRow
      .getByRole("alert")
      .getByText(/1 API token\(s\) are for the environment "prod-copy"/)
      .waitFor();
    await ui.database.prisma.apiToken.deleteMany({ where: { environment: "prod-copy" } });
    page.once("dialog", (dialog) => void dialog.accept());
    await copyRow.getByRole("button", { name: "Delete prod-copy" }).click();
    await expect.poll(() => page.getByRole("rowheader", { name: "prod-copy" }).count()).toBe(0);
    expect(ui.externalRequests).toEqual([]);
  });
});
