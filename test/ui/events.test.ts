import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlag, enableFlag } from "../helpers/builders.ts";
import { hasChromium, startUi, type UiHarness } from "./browser.ts";

declare global {
  interface Window {
    openSockets?: WebSocket[];
  }
}

describe.skipIf(!hasChromium)("web UI: event log", { timeout: 60_000 }, () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui?.close());

  /** Rows of the log about one flag (its link), and of one event type among them. */
  const rowsOf = (page: Page, flag: string, type?: string) => {
    const rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: flag, exact: true }) });
    return type ? rows.filter({ hasText: type }) : rows;
  };

  it("shows new events live, from the API and from another page", async () => {
    const log = await ui.signedIn(undefined, "/events");
    await log.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await createFlag(ui, "live-one");
    await rowsOf(log, "live-one", "feature-created").waitFor();
    await enableFlag(ui, "live-one", "development");
    await rowsOf(log, "live-one", "feature-environment-enabled").waitFor();

    const other = await ui.signedIn(undefined, "/flags");
    await other.getByLabel("New flag name").fill("from-other-page");
    await other.getByRole("button", { name: "Create flag" }).click();
    await rowsOf(log, "from-other-page", "feature-created").waitFor();
    // Newest first: the last one made is on top.
    await expect.poll(() => log.getByRole("row").nth(1).textContent()).toContain("from-other-page");
    // Each of live-one's events exactly once: as many rows as the API counts.
    const stored = await ui.gql<any>(`{ events(filter: { features: ["live-one"] }) { totalCount } }`);
    expect(stored.data.events.totalCount).toBeGreaterThanOrEqual(2);
    await expect.poll(() => rowsOf(log, "live-one").count()).toBe(stored.data.events.totalCount);
  });

  it("narrows the list with filters kept in the URL, also for live events", async () => {
    await createFlag(ui, "filtered-a");
    await createFlag(ui, "filtered-b");
    const log = await ui.signedIn(undefined, "/events");
    await rowsOf(log, "filtered-b").first().waitFor();
    await log.getByLabel("Flag").fill("filtered-a");
    await log.getByLabel("Type").fill("feature-created,feature-environment-enabled");
    await log.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => rowsOf(log, "filtered-b").count()).toBe(0);
    await rowsOf(log, "filtered-a", "feature-created").waitFor();
    expect(new URL(log.url()).searchParams.get("feature")).toBe("filtered-a");

    await log.reload();
    await expect.poll(() => log.getByLabel("Flag").inputValue()).toBe("filtered-a");
    await rowsOf(log, "filtered-a", "feature-created").waitFor();
    expect(await rowsOf(log, "filtered-b").count()).toBe(0);

    // Live events obey the filter: only filtered-a's enabling shows up.
    await log.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await enableFlag(ui, "filtered-b", "development");
    await enableFlag(ui, "filtered-a", "development");
    await rowsOf(log, "filtered-a", "feature-environment-enabled").waitFor();
    expect(await rowsOf(log, "filtered-b").count()).toBe(0);

    // A text search (not expressible in the subscription) is checked for each live event.
    await log.getByLabel("Flag").fill("");
    await log.getByLabel("Type").fill("");
    await log.getByLabel("Text", { exact: true }).fill("needle-flag");
    await log.getByRole("button", { name: "Search" }).click();
    await log.getByText("0 events", { exact: true }).waitFor();
    await log.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await createFlag(ui, "haystack-flag");
    await createFlag(ui, "needle-flag");
    await rowsOf(log, "needle-flag", "feature-created").waitFor();
    expect(await rowsOf(log, "haystack-flag").count()).toBe(0);
    expect(ui.externalRequests).toEqual([]);
  });

  it("resumes after a dropped connection with the events it missed, each once", async () => {
    const log = await ui.signedIn(undefined, "/events");
    // Keep a handle on the page's sockets to drop them like a network failure would.
    await log.addInitScript(() => {
      const Native = window.WebSocket;
      window.openSockets = [];
      window.WebSocket = class extends Native {
        constructor(...args: ConstructorParameters<typeof WebSocket>) {
          super(...args);
          window.openSockets?.push(this);
        }
      };
    });
    await log.reload();
    await log.getByRole("status").filter({ hasText: "Live" }).waitFor();
    await createFlag(ui, "before-drop");
    await rowsOf(log, "before-drop", "feature-created").waitFor();

    // The context is the signed-in user's for the whole file: it goes back online even if this fails.
    await log.context().setOffline(true);
    try {
      await log.evaluate(() => {
        for (const socket of window.openSockets ?? []) socket.close(4499, "Terminated");
      });
      await createFlag(ui, "while-offline");
      await enableFlag(ui, "while-offline", "development");
      await enableFlag(ui, "before-drop", "development");
    } finally {
      await log.context().setOffline(false);
    }

    await rowsOf(log, "while-offline", "feature-environment-enabled").waitFor({ timeout: 20_000 });
    // Events after these come in order: once this one shows, any duplicate would have too.
    await createFlag(ui, "after-reconnect");
    await rowsOf(log, "after-reconnect", "feature-created").waitFor({ timeout: 20_000 });
    expect(await rowsOf(log, "while-offline", "feature-created").count()).toBe(1);
    expect(await rowsOf(log, "while-offline", "feature-environment-enabled").count()).toBe(1);
    expect(await rowsOf(log, "before-drop", "feature-created").count()).toBe(1);
    expect(await rowsOf(log, "before-drop", "feature-environment-enabled").count()).toBe(1);
    expect(ui.externalRequests).toEqual([]);
  });
});
