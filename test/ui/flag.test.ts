import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addStrategy,
  apiToken,
  createContextField,
  createFlag,
  createSegment,
  enableFlag,
  gqlOk,
  reportMetrics,
} from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

type StoredStrategy = {
  databaseId: string;
  name: string;
  title: string | null;
  disabled: boolean;
  sortOrder: number;
  segments: number[];
  parameters: Record<string, string>;
  constraints: Record<string, unknown>[];
};
type StoredFlag = {
  stale: boolean;
  archived: boolean;
  tags: { type: string; value: string }[];
  dependencies: { feature: string; enabled: boolean; variants: string[] }[];
  environments: { name: string; enabled: boolean; strategies: StoredStrategy[] }[];
};

describe.skipIf(!hasChromium)("web UI: the flag page", () => {
  let ui: UiHarness;
  let page: Page;
  beforeAll(async () => {
    ui = await startUi();
    page = await ui.signedIn();
  });
  afterAll(() => ui?.close());

  async function stored(name: string): Promise<StoredFlag> {
    const data = await gqlOk<{ projectFeature: StoredFlag }>(
      ui,
      `query ($name: String!) {
        projectFeature(project: "default", name: $name) {
          stale archived tags { type value } dependencies { feature enabled variants }
          environments {
            name enabled
            strategies {
              databaseId name title disabled sortOrder parameters segments
              constraints { contextName operator values value inverted caseInsensitive }
            }
          }
        }
      }`,
      { name },
    );
    return data.projectFeature;
  }

  const strategiesIn = async (flag: string, environment: string) =>
    ((await stored(flag)).environments.find((e) => e.name === environment)?.strategies ?? []).sort(
      (a, b) => a.sortOrder - b.sortOrder,
    );

  /** Opens the flag's page in the one signed-in browser page (a login per test costs seconds). */
  async function openFlag(name: string) {
    await page.goto(`/projects/default/flags/${name}`);
    await page.getByRole("heading", { level: 1, name }).waitFor();
  }

  const environmentOf = (environment: string) =>
    page.getByRole("region", { name: new RegExp(`^${environment} `) });

  it("enables the flag in development and shows it on", async () => {
    await createFlag(ui, "switch-me");
    await openFlag("switch-me");
    const toggle = page.getByRole("switch", { name: "Enabled in development" });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    const flag = await stored("switch-me");
    expect(flag.environments.find((e) => e.name === "development")?.enabled).toBe(true);
    expect(flag.environments.find((e) => e.name === "production")?.enabled).toBe(false);
    await page.reload();
    await expect
      .poll(() => page.getByRole("switch", { name: "Enabled in development" }).isChecked())
      .toBe(true);
  });

  it("adds a flexibleRollout strategy with a constraint, stored exactly", async () => {
    await createFlag(ui, "rollout-flag");
    const segmentId = await createSegment(ui, "beta-testers", { constraints: [] });
    await openFlag("rollout-flag");
    await environmentOf("development").getByRole("button", { name: "Add strategy in development" }).click();
    const form = page.getByRole("form", { name: "New strategy in development" });
    expect(await form.getByLabel("Strategy type").inputValue()).toBe("flexibleRollout");
    await form.getByLabel("Title").fill("Beta users");
    await form.getByLabel("Rollout %").fill("40");
    await form.getByLabel("Stickiness").selectOption("userId");
    await form.getByLabel("Group id").fill("beta-group");
    await form.getByRole("button", { name: "Add constraint" }).click();
    await form.getByLabel("Context field of constraint 1").selectOption("userId");
    await form.getByLabel("Operator of constraint 1").selectOption("IN");
    await form.getByLabel("Values of constraint 1 (comma-separated)").fill("alice, bob");
    await form.getByRole("group", { name: "Segments" }).getByLabel("beta-testers").check();
    await form.getByRole("button", { name: "Save strategy" }).click();
    await environmentOf("development").getByText("Beta users").waitFor();

    const strategies = await strategiesIn("rollout-flag", "development");
    expect(strategies).toHaveLength(1);
    expect(strategies[0]).toMatchObject({
      name: "flexibleRollout",
      title: "Beta users",
      disabled: false,
      parameters: { rollout: "40", stickiness: "userId", groupId: "beta-group" },
      constraints: [
        {
          contextName: "userId",
          operator: "IN",
          values: ["alice", "bob"],
          value: null,
          inverted: false,
          caseInsensitive: false,
        },
      ],
    });
    expect(strategies[0]?.segments).toEqual([segmentId]);
    expect(Object.keys(strategies[0]?.parameters ?? {}).sort()).toEqual(["groupId", "rollout", "stickiness"]);
  });

  it("constraints offer the built-in context fields, and a defined field's legal values as checkboxes", async () => {
    await page.goto("/context-fields");
    const builtIn = page.getByRole("table", { name: "Built-in context fields" });
    for (const name of ["userId", "sessionId", "remoteAddress", "appName", "environment", "currentTime"])
      await builtIn.getByRole("rowheader", { name, exact: true }).waitFor();
    await page.getByText("No context fields defined yet.").waitFor();

    await createContextField(ui, "tier", { legalValues: [{ value: "gold" }, { value: "silver" }] });
    await createFlag(ui, "context-flag");
    await openFlag("context-flag");
    await page.getByRole("button", { name: "Add strategy in development" }).click();
    const form = page.getByRole("form", { name: "New strategy in development" });
    await form.getByLabel("Strategy type").selectOption("default");
    const addConstraint = () => form.getByRole("button", { name: "Add constraint" }).click();
    await addConstraint();
    await form.getByLabel("Context field of constraint 1").selectOption("currentTime");
    await form.getByLabel("Operator of constraint 1").selectOption("DATE_AFTER");
    await form.getByLabel("Value of constraint 1").fill("2026-01-01T00:00:00.000Z");
    await addConstraint();
    await form.getByLabel("Context field of constraint 2").selectOption("tier");
    await form
      .getByRole("group", { name: "Values of constraint 2" })
      .getByRole("checkbox", { name: "gold" })
      .check();
    await addConstraint();
    await form.getByLabel("Context field of constraint 3").selectOption("appName");
    await form.getByLabel("Operator of constraint 3").selectOption("STR_STARTS_WITH");
    await form.getByLabel("Values of constraint 3 (comma-separated)").fill("Web");
    await form.getByRole("group", { name: "Constraint 3" }).getByLabel("Case-insensitive").check();
    await form.getByRole("button", { name: "Save strategy" }).click();
    await form.waitFor({ state: "detached" });

    const [strategy] = await strategiesIn("context-flag", "development");
    expect(strategy?.constraints).toEqual([
      {
        contextName: "currentTime",
        operator: "DATE_AFTER",
        values: [],
        value: "2026-01-01T00:00:00.000Z",
        inverted: false,
        caseInsensitive: false,
      },
      {
        contextName: "tier",
        operator: "IN",
        values: ["gold"],
        value: null,
        inverted: false,
        caseInsensitive: false,
      },
      {
        contextName: "appName",
        operator: "STR_STARTS_WITH",
        values: ["Web"],
        value: null,
        inverted: false,
        caseInsensitive: true,
      },
    ]);
  });

  it("shows the API's validation error next to the constraint value", async () => {
    await createFlag(ui, "invalid-flag");
    await openFlag("invalid-flag");
    await page.getByRole("button", { name: "Add strategy in development" }).click();
    const form = page.getByRole("form", { name: "New strategy in development" });
    await form.getByRole("button", { name: "Add constraint" }).click();
    await form.getByLabel("Operator of constraint 1").selectOption("NUM_GT");
    const value = form.getByLabel("Value of constraint 1");
    await value.fill("abc");
    await form.getByRole("button", { name: "Save strategy" }).click();
    await expect.poll(() => value.getAttribute("aria-invalid")).toBe("true");
    const messageId = await value.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${messageId}"]`).textContent()).toMatch(/NUM_GT needs a number/);
    expect(await strategiesIn("invalid-flag", "development")).toEqual([]);
    // Corrected, the same form saves.
    await value.fill("18");
    await form.getByRole("button", { name: "Save strategy" }).click();
    await form.waitFor({ state: "detached" });
    const [strategy] = await strategiesIn("invalid-flag", "development");
    expect(strategy?.constraints).toEqual([
      {
        contextName: expect.any(String),
        operator: "NUM_GT",
        values: [],
        value: "18",
        inverted: false,
        caseInsensitive: false,
      },
    ]);
  });

  it("edits, reorders (also by keyboard), disables and deletes strategies", async () => {
    await createFlag(ui, "order-flag");
    for (const title of ["First", "Second"]) {
      await addStrategy(ui, "order-flag", { name: "default", title });
    }
    const titles = async () => (await strategiesIn("order-flag", "development")).map((s) => s.title);
    await openFlag("order-flag");
    await page.getByRole("button", { name: "Move Second up" }).click();
    await expect.poll(titles).toEqual(["Second", "First"]);
    await page.getByRole("button", { name: "Move Second down" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(titles).toEqual(["First", "Second"]);

    await page.getByRole("button", { name: "Edit First" }).click();
    const form = page.getByRole("form", { name: "Edit strategy First" });
    await form.getByLabel("Title").fill("Renamed");
    await form.getByRole("button", { name: "Save strategy" }).click();
    await page.getByRole("button", { name: "Edit Renamed" }).waitFor();
    await expect.poll(titles).toEqual(["Renamed", "Second"]);

    await page.getByRole("button", { name: "Disable Second" }).click();
    await page.getByRole("button", { name: "Enable Second" }).waitFor();
    expect((await strategiesIn("order-flag", "development"))[1]?.disabled).toBe(true);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Second" }).click();
    await page.getByRole("button", { name: "Delete Second" }).waitFor({ state: "detached" });
    expect(await titles()).toEqual(["Renamed"]);
  });

  it("sets environment variants with a fixed weight, a payload and an override", async () => {
    await createFlag(ui, "variant-flag");
    await openFlag("variant-flag");
    await page.getByRole("button", { name: "Edit variants in development" }).click();
    const form = page.getByRole("form", { name: "Variants in development" });
    await form.getByRole("button", { name: "Add variant" }).click();
    await form.getByRole("button", { name: "Add variant" }).click();
    // Variable variants show the share the server will store.
    const weight = (n: number) => form.getByLabel(`Weight of variant ${n} (of 1000)`).inputValue();
    expect([await weight(1), await weight(2)]).toEqual(["500", "500"]);
    await form.getByLabel("Name of variant 1").fill("blue");
    await form.getByLabel("Weight type of variant 1").selectOption("fix");
    await form.getByLabel("Weight of variant 1 (of 1000)").fill("300");
    expect(await weight(2)).toBe("700");
    await form.getByLabel("Payload type of variant 1").selectOption("json");
    await form.getByLabel("Payload of variant 1").fill("{not json");
    await form.getByLabel("Name of variant 2").fill("green");
    await form.getByRole("button", { name: "Add override to variant 2" }).click();
    await form.getByLabel("Context field of override 1").selectOption("userId");
    await form.getByLabel("Values of override 1 (comma-separated)").fill("alice,bob");
    await form.getByRole("button", { name: "Save variants" }).click();
    const payload = form.getByLabel("Payload of variant 1");
    await expect.poll(() => payload.getAttribute("aria-invalid")).toBe("true");
    await payload.fill('{"color":"blue"}');
    await form.getByRole("button", { name: "Save variants" }).click();
    await form.waitFor({ state: "detached" });
    const { projectFeature } = await gqlOk<{
      projectFeature: { environments: { name: string; variants: Record<string, unknown>[] }[] };
    }>(
      ui,
      `{
      projectFeature(project: "default", name: "variant-flag") {
        environments { name variants { name weight weightType stickiness payload { type value } overrides { contextName values } } }
      }
    }`,
    );
    expect(projectFeature.environments.find((e) => e.name === "development")?.variants).toEqual([
      {
        name: "blue",
        weight: 300,
        weightType: "fix",
        stickiness: "default",
        payload: { type: "json", value: '{"color":"blue"}' },
        overrides: [],
      },
      {
        name: "green",
        weight: 700,
        weightType: "variable",
        stickiness: "default",
        payload: null,
        overrides: [{ contextName: "userId", values: ["alice", "bob"] }],
      },
    ]);
    await environmentOf("development").getByText("blue", { exact: true }).waitFor();
  });

  it("adds and removes tags and a dependency", async () => {
    await createFlag(ui, "parent-flag");
    await createFlag(ui, "child-flag");
    await openFlag("child-flag");
    const tags = page.getByRole("form", { name: "Add tag" });
    await tags.getByLabel("Tag type").selectOption("simple");
    await tags.getByLabel("Tag value").fill("team-checkout");
    await tags.getByRole("button", { name: "Add tag" }).click();
    await page.getByRole("button", { name: "Remove tag simple: team-checkout" }).waitFor();
    expect((await stored("child-flag")).tags).toEqual([{ type: "simple", value: "team-checkout" }]);
    await page.getByRole("button", { name: "Remove tag simple: team-checkout" }).click();
    await page
      .getByRole("button", { name: "Remove tag simple: team-checkout" })
      .waitFor({ state: "detached" });
    expect((await stored("child-flag")).tags).toEqual([]);

    const dependency = page.getByRole("form", { name: "Add dependency" });
    await dependency.getByLabel("Parent flag").selectOption("parent-flag");
    await dependency.getByRole("button", { name: "Add dependency" }).click();
    await page
      .getByRole("list", { name: "Parent flags" })
      .getByRole("link", { name: "parent-flag" })
      .waitFor();
    expect((await stored("child-flag")).dependencies).toEqual([
      { feature: "parent-flag", enabled: true, variants: [] },
    ]);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove dependency on parent-flag" }).click();
    await page.getByText("No parent flag.").waitFor();
    expect((await stored("child-flag")).dependencies).toEqual([]);
  });

  it("edits the settings, completes and uncompletes, favourites, marks stale and archives", async () => {
    await createFlag(ui, "old-flag");
    await openFlag("old-flag");
    // A flag no SDK has seen has nothing to complete.
    expect(await page.getByRole("form", { name: "Complete flag" }).count()).toBe(0);
    const sdk = await apiToken(ui, "client", "development", ["*"]);
    expect(await reportMetrics(ui, sdk, { "old-flag": { yes: 1, no: 0 } })).toBe(202);
    // Metrics are written within a second (buffered): then the flag is pre-live.
    await expect
      .poll(async () => {
        const { projectFeature } = await gqlOk<{ projectFeature: { lifecycle: { stage: string } } }>(
          ui,
          `{ projectFeature(project: "default", name: "old-flag") { lifecycle { stage } } }`,
        );
        return projectFeature.lifecycle.stage;
      })
      .toBe("pre-live");
    await openFlag("old-flag");
    const settings = page.getByRole("form", { name: "Flag settings" });
    await settings.getByLabel("Description").fill("Old checkout path");
    await settings.getByLabel("Impression data").check();
    await settings.getByRole("button", { name: "Save settings" }).click();
    await settings.getByRole("status").getByText("Saved.").waitFor();
    const meta = () =>
      gqlOk<{
        projectFeature: { description: string; impressionData: boolean; lifecycle: { stage: string } };
      }>(
        ui,
        `{ projectFeature(project: "default", name: "old-flag") { description impressionData lifecycle { stage } } }`,
      ).then((d) => d.projectFeature);
    expect(await meta()).toMatchObject({ description: "Old checkout path", impressionData: true });

    const complete = page.getByRole("form", { name: "Complete flag" });
    await complete.getByLabel("Outcome").selectOption("discarded");
    await complete.getByRole("button", { name: "Mark completed" }).click();
    await page.getByRole("button", { name: "Uncomplete" }).waitFor();
    expect((await meta()).lifecycle.stage).toBe("completed");
    await page.getByRole("button", { name: "Uncomplete" }).click();
    await complete.waitFor();
    expect((await meta()).lifecycle.stage).not.toBe("completed");

    await page.getByRole("button", { name: "Favourite" }).click();
    await expect
      .poll(() => page.getByRole("button", { name: "Favourite" }).getAttribute("aria-pressed"))
      .toBe("true");
    await page.getByRole("button", { name: "Mark stale" }).click();
    await page.getByRole("button", { name: "Mark active" }).waitFor();
    expect((await stored("old-flag")).stale).toBe(true);

    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Archive" }).click();
    expect((await stored("old-flag")).archived).toBe(false);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Archive" }).click();
    await page.getByText("This flag is archived").waitFor();
    expect((await stored("old-flag")).archived).toBe(true);
    expect(await page.getByRole("switch", { name: "Enabled in development" }).isDisabled()).toBe(true);
    // The list says "archived" once (not also as its lifecycle stage).
    await page.goto("/flags?archived=1&q=old-flag");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "old-flag" }) });
    await row.waitFor();
    expect(await row.getByText("archived", { exact: true }).count()).toBe(1);
    await openFlag("old-flag");
    await page.getByRole("button", { name: "Revive" }).click();
    await page.getByRole("button", { name: "Archive" }).waitFor();
    expect((await stored("old-flag")).archived).toBe(false);
  });

  it("shows a change made through the API in the open page's history, without reload", async () => {
    await createFlag(ui, "watched-flag");
    await openFlag("watched-flag");
    const history = page.getByRole("list", { name: "Flag history" });
    await history.getByText("feature-created").waitFor();
    await gqlOk(
      ui,
      `mutation { addFeatureTag(feature: "watched-flag", type: "simple", value: "from-api") { value } }`,
    );
    await history.getByText("feature-tagged").waitFor();
    await page.getByRole("button", { name: "Remove tag simple: from-api" }).waitFor();
    await enableFlag(ui, "watched-flag", "development");
    await history.getByText("feature-environment-enabled").waitFor();
    await expect
      .poll(() => page.getByRole("switch", { name: "Enabled in development" }).isChecked())
      .toBe(true);
  });

  it("proposes a toggle in a protected environment as a draft change request", async () => {
    await gqlOk(
      ui,
      `mutation {
        updateChangeRequestConfig(project: "default", environment: "production", changeRequestsEnabled: true, requiredApprovals: 1) {
          environment
        }
      }`,
    );
    await createFlag(ui, "guarded-flag");
    await openFlag("guarded-flag");
    const production = environmentOf("production");
    await production.getByText("Changes in production need review").waitFor();
    await production.getByRole("switch", { name: "Enabled in production" }).click();
    const link = production.getByRole("status").getByRole("link", { name: /^#\d+$/ });
    await link.waitFor();
    const id = Number((await link.textContent())?.slice(1));
    expect(await link.getAttribute("href")).toBe(`/change-requests/${id}`);
    expect(await production.getByRole("switch", { name: "Enabled in production" }).isChecked()).toBe(false);
    expect((await stored("guarded-flag")).environments.find((e) => e.name === "production")?.enabled).toBe(
      false,
    );

    const { changeRequest } = await gqlOk<{
      changeRequest: {
        state: string;
        environment: string;
        features: { name: string; changes: { action: string; payload: unknown }[] }[];
      };
    }>(
      ui,
      `query ($id: Int!) {
        changeRequest(id: $id) { state environment features { name changes { action payload } } }
      }`,
      { id },
    );
    expect(changeRequest).toMatchObject({
      state: "Draft",
      environment: "production",
      features: [
        { name: "guarded-flag", changes: [{ action: "updateEnabled", payload: { enabled: true } }] },
      ],
    });
    // The pending request is listed with the environment, as a link.
    await production
      .getByRole("note")
      .getByRole("link", { name: `#${id}` })
      .waitFor();

    // A strategy made there goes into the same draft.
    await production.getByRole("button", { name: "Add strategy in production" }).click();
    const form = page.getByRole("form", { name: "New strategy in production" });
    await form.getByLabel("Rollout %").fill("25");
    await form.getByRole("button", { name: "Propose strategy" }).click();
    await form.waitFor({ state: "detached" });
    expect(await strategiesIn("guarded-flag", "production")).toEqual([]);
    const after = await gqlOk<{
      changeRequest: { features: { changes: { action: string; payload: unknown }[] }[] };
    }>(ui, `query ($id: Int!) { changeRequest(id: $id) { features { changes { action payload } } } }`, {
      id,
    });
    expect(after.changeRequest.features[0]?.changes.map((c) => c.action)).toEqual([
      "updateEnabled",
      "addStrategy",
    ]);
    expect(after.changeRequest.features[0]?.changes[1]?.payload).toMatchObject({
      name: "flexibleRollout",
      parameters: { rollout: "25", stickiness: "default" },
      constraints: [],
    });
    expect(ui.externalRequests).toEqual([]);
  });
});
