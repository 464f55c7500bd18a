import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiToken, createFlag, enableFlag, reportMetrics } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

/** What SDKs report shows in the UI: a flag's usage per environment, and the applications (issue 40.4). */
describe.skipIf(!hasChromium)("web UI: SDK usage", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ VEXIL_METRICS_FLUSH_MS: "0" });
    await createFlag(ui, "reported-flag");
    await enableFlag(ui, "reported-flag", "development");
    const sdk = await apiToken(ui, "client", "development", ["*"]);
    const registered = await ui.rest(
      "POST",
      "/api/client/register",
      {
        appName: "checkout-web",
        instanceId: "pod-7",
        sdkVersion: "unleash-client-node:6.12.1",
        strategies: [],
      },
      sdk,
    );
    expect(registered.status).toBe(202);
    const options = { appName: "checkout-web", instanceId: "pod-7" };
    expect(await reportMetrics(ui, sdk, { "reported-flag": { yes: 7, no: 3 } }, options)).toBe(202);
    // unleash-client's impact metrics, its samples labelled with the flag's value for the user.
    const impact = await ui.rest(
      "POST",
      "/api/client/metrics",
      {
        appName: "checkout-web",
        instanceId: "pod-7",
        impactMetrics: [
          {
            name: "checkout_errors",
            help: "errors",
            type: "counter",
            samples: [
              { labels: { "reported-flag": "enabled" }, value: 6 },
              { labels: { "reported-flag": "disabled" }, value: 2 },
            ],
          },
        ],
      },
      sdk,
    );
    expect(impact.status).toBe(202);
  });
  afterAll(() => ui?.close());

  it("the flag page shows last seen, yes/no and the applications per environment, with an hourly chart", async () => {
    const page = await ui.signedIn(undefined, "/projects/default/flags/reported-flag");
    const usage = page.getByRole("region", { name: "Usage" });
    const development = usage
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "development" }) });
    await development.waitFor();
    const cells = await development.getByRole("cell").allTextContents();
    expect(cells.slice(1, 4)).toEqual(["7", "3", "checkout-web"]);
    expect(cells[0]).not.toBe("never");
    await development.getByRole("img", { name: "Yes and no per hour in development" }).waitFor();
    const production = usage
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "production" }) });
    expect((await production.getByRole("cell").allTextContents()).slice(0, 3)).toEqual(["never", "0", "0"]);
    // Impact metrics next to the counts: the flag's populations side by side.
    const impact = usage.getByRole("table", { name: /Impact metrics in development/ });
    const enabled = impact
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "enabled", exact: true }) });
    expect((await enabled.getByRole("cell").allTextContents()).slice(0, 2)).toEqual(["enabled", "6"]);
    await enabled.getByRole("img", { name: "checkout_errors per minute in development (enabled)" }).waitFor();
    const disabled = impact
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "disabled", exact: true }) });
    expect((await disabled.getByRole("cell").allTextContents()).slice(0, 2)).toEqual(["disabled", "2"]);
  });

  it("the Applications page lists each application with its instances and the flags it evaluates", async () => {
    const page = await ui.signedIn(undefined, "/");
    await page.getByRole("link", { name: "Applications" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /checkout-web/ }) });
    await row.waitFor();
    await row.getByRole("list", { name: "Instances of checkout-web" }).getByText(/pod-7/).waitFor();
    expect(await row.getByText("unleash-client-node:6.12.1", { exact: false }).count()).toBe(1);
    await row.getByRole("link", { name: "reported-flag" }).click();
    await page.getByRole("heading", { level: 1, name: "reported-flag" }).waitFor();
  });
});
