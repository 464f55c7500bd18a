import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { apiToken, configureChangeRequests, createFlag, gqlOk } from "../helpers/builders.ts";
import { gqlAs, hasChromium, startUi, type UiHarness } from "./browser.ts";

/**
 * The flag page's releases (issue 41.4): apply a template with a safeguard, advance, see a trip
 * arrive live with its numbers, resume; save an environment's strategies as a template; where
 * the environment needs review, propose the plan and its milestones and see them pending (D-26).
 */
describe.skipIf(!hasChromium)("web UI: release plans on the flag page", () => {
  let ui: UiHarness;
  let page: Page;
  let sdk: string;
  const rollout = (percent: number) => ({
    name: "flexibleRollout",
    parameters: { rollout: String(percent), stickiness: "default", groupId: "ui-release" },
  });

  async function reportErrors(value: number) {
    const body = {
      appName: "shop",
      impactMetrics: [
        { name: "http_errors", help: "errors", type: "counter", samples: [{ labels: {}, value }] },
      ],
    };
    expect((await ui.rest("POST", "/api/client/metrics", body, sdk)).status).toBe(202);
  }

  const rolloutIn = async (environment: string, flag = "ui-release") => {
    const data = await gqlOk(
      ui,
      `query($flag: String!) { projectFeature(project: "default", name: $flag) { environments { name strategies { parameters } } } }`,
      { flag },
    );
    const env = data.projectFeature.environments.find((e: { name: string }) => e.name === environment);
    return env.strategies.map((s: { parameters: { rollout: string } }) => s.parameters.rollout);
  };

  beforeAll(async () => {
    ui = await startUi({ VEXIL_METRICS_FLUSH_MS: "0" });
    sdk = await apiToken(ui, "client", "development", ["*"]);
    await reportErrors(0);
    await createFlag(ui, "ui-release", {
      enabledIn: ["development"],
      strategies: [{ ...rollout(100), environment: "production" }],
    });
    await gqlOk(
      ui,
      `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
      {
        input: {
          name: "ten-then-half",
          milestones: [
            { name: "10 %", strategies: [rollout(10)] },
            { name: "50 %", strategies: [rollout(50)] },
          ],
        },
      },
    );
    page = await ui.signedIn();
    await page.goto("/projects/default/flags/ui-release");
    await page.getByRole("heading", { level: 1, name: "ui-release" }).waitFor();
  });
  afterAll(() => ui?.close());

  it("applies a template with a safeguard, advances, shows a trip live, and resumes", async () => {
    const form = page.getByRole("form", { name: "Apply a release template in development" });
    await form.getByLabel("Template").selectOption({ label: "ten-then-half" });
    await form.getByLabel("Safeguard metric").selectOption("http_errors");
    await form.getByLabel("Read as").selectOption("count");
    await form.getByLabel("Threshold").fill("5");
    await form.getByRole("button", { name: "Apply template" }).click();
    const release = page.getByRole("region", { name: "Release in development" });
    await release.getByText("10 % (running)").waitFor();
    expect(await rolloutIn("development")).toEqual(["10"]);

    await release.getByRole("button", { name: "Advance" }).click();
    await release.getByText("50 % (running)").waitFor();
    expect(await rolloutIn("development")).toEqual(["50"]);

    await reportErrors(9);
    await runReleasePlansOnce(ui.deps);
    // Nothing reloads the page: the plan's subscription brings the trip.
    await release
      .getByRole("status")
      .getByText(/http_errors \(count\) was 9, > 5/)
      .waitFor();
    await release.getByText("10 % (running)").waitFor();
    expect(await release.getByText("paused", { exact: true }).count()).toBe(1);
    expect(await rolloutIn("development")).toEqual(["10"]);

    await release.getByRole("button", { name: "Resume" }).click();
    await release.getByText("running", { exact: true }).waitFor();
  });

  it("saves an environment's strategies as a template", async () => {
    const form = page.getByRole("form", { name: "Save the strategies of production as a template" });
    await form.getByLabel("Template name").fill("from-production");
    await form.getByRole("button", { name: "Save strategies as a template" }).click();
    await page
      .getByRole("form", { name: "Apply a release template in production" })
      .getByRole("option", { name: "from-production" })
      .waitFor({ state: "attached" });
    const data = await gqlOk(
      ui,
      `{ releaseTemplates { name milestones { strategies { name parameters } } } }`,
    );
    const saved = data.releaseTemplates.find((t: { name: string }) => t.name === "from-production");
    expect(saved.milestones[0].strategies).toEqual([
      {
        name: "flexibleRollout",
        parameters: { rollout: "100", stickiness: "default", groupId: "ui-release" },
      },
    ]);
  });

  it("where the environment needs review, proposes the plan and a milestone, and shows what is pending", async () => {
    await configureChangeRequests(ui, "production", 1);
    await createFlag(ui, "ui-reviewed");
    const reviewed = await ui.signedIn();
    await reviewed.goto("/projects/default/flags/ui-reviewed");
    const form = reviewed.getByRole("form", { name: "Apply a release template in production" });
    await form.getByLabel("Template").selectOption({ label: "ten-then-half" });
    await form.getByRole("button", { name: "Propose plan" }).click();
    const release = reviewed.getByRole("region", { name: "Release in production" });
    const pending = release.getByRole("list", { name: "Pending release changes in production" });
    await pending.getByText('add the plan "ten-then-half"').waitFor();
    const link = pending.getByRole("link");
    const id = Number((await link.textContent())?.replace("#", ""));
    expect(
      await gqlOk(
        ui,
        `{ releasePlan(project: "default", feature: "ui-reviewed", environment: "production") { databaseId } }`,
      ),
    ).toEqual({ releasePlan: null });

    // The user sends it to review; another approver (the admin token) approves and applies it.
    const send = `mutation($id: Int!) { sendChangeRequestToReview(project: "default", id: $id) { state } }`;
    expect((await gqlAs(reviewed, send, { id })).data?.sendChangeRequestToReview.state).toBe("In review");
    await gqlOk(ui, `mutation($id: Int!) { approveChangeRequest(project: "default", id: $id) { state } }`, {
      id,
    });
    await gqlOk(ui, `mutation($id: Int!) { applyChangeRequest(project: "default", id: $id) { state } }`, {
      id,
    });
    await release.getByText("10 % (running)").waitFor();
    await release
      .getByRole("list", { name: "Pending release changes in production" })
      .waitFor({ state: "detached" });

    await release.getByRole("button", { name: "Propose: Advance" }).click();
    await release
      .getByRole("list", { name: "Pending release changes in production" })
      .getByText('start "50 %"')
      .waitFor();
    await release.getByText(/Proposed in change request/).waitFor();
    expect(await rolloutIn("production", "ui-reviewed")).toEqual(["10"]);
  });

  it("compares with the users without the flag, and says why a count cannot be", async () => {
    await createFlag(ui, "ui-compared");
    const compared = await ui.signedIn();
    await compared.goto("/projects/default/flags/ui-compared");
    const form = compared.getByRole("form", { name: "Apply a release template in development" });
    await form.getByLabel("Template").selectOption({ label: "ten-then-half" });
    await form.getByLabel("Safeguard metric").selectOption("http_errors");
    await form.getByLabel("Read as").selectOption("count");
    await form.getByLabel("Compared with").selectOption("flagOff");
    await form.getByRole("button", { name: "Apply template" }).click();
    await form
      .getByText(/a flagOff baseline compares populations of different sizes/)
      .first()
      .waitFor();
    expect(
      await gqlOk(
        ui,
        `{ releasePlan(project: "default", feature: "ui-compared", environment: "development") { databaseId } }`,
      ),
    ).toEqual({ releasePlan: null });
  });
});
