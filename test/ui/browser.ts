import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { onTestFinished } from "vitest";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { projectRoot } from "../../src/shared/project-root.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

export const ADMIN = { username: "admin", password: "Admin-Password-1" };

export type UiHarness = TestApp & {
  url: string;
  browser: Browser;
  /**
   * A new page at `path`, signed in as `user`. Each user (name and password) has one browser
   * context (cookies) per file, signed in through the API's login when it is made: its pages
   * open signed in, and log in through the form if the session has ended. A page opened
   * in a test closes when the test ends; one opened in `beforeAll` stays open for the file.
   */
  signedIn(user?: { username: string; password: string }, path?: string): Promise<Page>;
  /** A new page at `path`, signed out: in the file's signed-out context, its cookies cleared first. */
  page(path?: string): Promise<Page>;
  /**
   * Requests the pages made to other hosts (refused: the browser's proxy is a closed port, and
   * only the server is reached directly): the UI must work offline.
   */
  externalRequests: string[];
};

let launched: Promise<Browser> | undefined;

/**
 * The worker's Chromium, launched by its first browser test and shared by the files after it
 * (each file has its own contexts: cookies, cache and request list): a launch costs ~0.6 s of
 * CPU. Requests to hosts other than 127.0.0.1 go to a closed proxy port and fail. Playwright
 * closes it when the worker ends (vitest stops workers with SIGTERM).
 */
async function workerBrowser(): Promise<Browser> {
  const current = await launched?.catch(() => undefined);
  if (current?.isConnected()) return current;
  launched = chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox"],
    proxy: { server: "http://127.0.0.1:9", bypass: "127.0.0.1" },
  });
  return launched;
}

/**
 * A Vexil server on a fresh database, listening on a free port and serving the built UI
 * (ui/dist, made by `npm install`), and contexts of this file's own in the worker's headless
 * Chromium (workerBrowser). Requests to other hosts are refused and listed in
 * `externalRequests`. They are not intercepted (`context.route`): routing turns Chromium's HTTP
 * cache off and sends each request through this process, and a page would download and compile
 * the UI's scripts again on every load.
 */
export async function startUi(env: Record<string, string> = {}): Promise<UiHarness> {
  if (!existsSync(join(projectRoot(), "ui/dist/index.html"))) {
    throw new Error("ui/dist is missing: run `npm run build` (npm install builds it)");
  }
  // Links the server builds (avatars, reset links) use its public URL: bind first to know it.
  const bound = createServer();
  await new Promise<void>((resolve) => bound.listen(0, "127.0.0.1", resolve));
  const { port } = bound.address() as AddressInfo;
  const test = await createTestApp({ VEXIL_URL: `http://127.0.0.1:${port}`, ...env });
  const server: RunningServer = await listen(test.app, "127.0.0.1", port, bound);
  const browser = await workerBrowser();
  const contexts: BrowserContext[] = [];
  const externalRequests: string[] = [];
  // A new context costs Chromium ~1.4 s of CPU and a login, a new page in one ~0.4 s.
  const sessions = new Map<string, BrowserContext>();
  let signedOut: BrowserContext | undefined;

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    context.on("request", (request) => {
      const url = request.url();
      if (
        /^(https?|wss?):/.test(url) &&
        !url.startsWith(server.url) &&
        !url.startsWith(server.url.replace("http", "ws"))
      )
        externalRequests.push(url);
    });
    context.setDefaultTimeout(20_000);
    return context;
  }

  async function open(context: BrowserContext, path: string): Promise<Page> {
    const created = await context.newPage();
    try {
      onTestFinished(() => created.close());
    } catch {
      // Opened in beforeAll (not in a test): the file's page, closed with its context.
    }
    await created.goto(path);
    return created;
  }

  async function page(path = "/"): Promise<Page> {
    signedOut ??= await newContext();
    await signedOut.clearCookies();
    return open(signedOut, path);
  }

  return {
    ...test,
    url: server.url,
    browser,
    page,
    externalRequests,
    async signedIn(user = ADMIN, path = "/") {
      const key = `${user.username}\n${user.password}`;
      let context = sessions.get(key);
      if (!context) {
        context = await newContext();
        sessions.set(key, context);
        // The API's login sets the context's session and CSRF cookies: the first page opens
        // signed in instead of rendering the login form first (test/ui/flags.test.ts tests it).
        const login = await context.request.post("/auth/simple/login", {
          data: { username: user.username, password: user.password },
        });
        if (!login.ok())
          throw new Error(`login as ${user.username}: ${login.status()} ${await login.text()}`);
      }
      const created = await open(context, path);
      const logOut = created.getByRole("button", { name: "Log out" });
      const username = created.getByLabel("Username or email");
      await logOut.or(username).waitFor();
      if (await username.isVisible()) {
        await username.fill(user.username);
        await created.getByLabel("Password").fill(user.password);
        await created.getByRole("button", { name: "Log in" }).click();
        await logOut.waitFor();
      }
      return created;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await server.close(0);
      await test.close();
    },
  };
}

/** Runs a GraphQL operation in the page as its signed-in user (cookie plus CSRF header). */
export async function gqlAs(page: Page, query: string, variables: Record<string, unknown>) {
  return page.evaluate(
    async ({ query, variables }) => {
      const csrf = decodeURIComponent(document.cookie.match(/(?:^|;\s*)vexil-csrf=([^;]*)/)?.[1] ?? "");
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: any; errors?: { message: string }[] };
    },
    { query, variables },
  );
}
