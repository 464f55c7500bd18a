// `npm run ui:screenshots`: PNG screenshots of the web UI's main pages into docs/ui/, for the
// README. Starts a Vexil server on an in-memory PGlite database, seeds demo data through the
// GraphQL API (projects, flags with strategies and tags, two rounds of toggles for the event
// log and time travel, a change request), signs in with Debian's Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium) and saves each page of PAGES that exists in this
// build (a page answering "Page not found" is skipped), at 1280 px, plus the flag list at 390 px.
// Needs a built UI (`npm run build`).
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { createApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { createPglite } from "../src/db/pglite.ts";
import { openPglite } from "../src/db/pglite-database.ts";
import { createInProcessBus } from "../src/events/bus.ts";
import { listen } from "../src/http-server.ts";
import { createLogger } from "../src/shared/logger.ts";
import { projectRoot } from "../src/shared/project-root.ts";

/** What the pages' paths may refer to: an instant between the demo's two rounds of changes. */
type Demo = { between: string };

/** The pages to capture: file name (docs/ui/<name>.png), path, and the viewport width. */
const PAGES: { name: string; path: string | ((demo: Demo) => string); width?: number }[] = [
  { name: "dashboard", path: "/" },
  { name: "flags", path: "/flags" },
  { name: "flags-mobile", path: "/flags", width: 390 },
  { name: "flag", path: "/projects/default/flags/new-checkout" },
  { name: "projects", path: "/projects" },
  { name: "project", path: "/projects/default" },
  { name: "environments", path: "/environments" },
  { name: "segments", path: "/segments" },
  { name: "context-fields", path: "/context-fields" },
  { name: "tag-types", path: "/tag-types" },
  { name: "change-requests", path: "/change-requests" },
  { name: "change-request", path: "/change-requests/1" },
  { name: "events", path: "/events" },
  {
    name: "time-travel",
    path: (demo) =>
      `/time-travel?project=default&environment=production&at=${encodeURIComponent(demo.between)}`,
  },
  { name: "playground", path: "/playground" },
  { name: "integrations", path: "/integrations" },
  { name: "tokens", path: "/tokens" },
  { name: "users", path: "/users" },
];

const ADMIN_TOKEN = "*:*.screenshots-admin-secret-0123456789abcdef";
const ADMIN = { username: "admin", password: "Admin-Password-1" };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUT = join(projectRoot(), "docs/ui");

type Gql = (query: string, variables?: Record<string, unknown>) => Promise<unknown>;

async function seed(gql: Gql): Promise<Demo> {
  const flag = `mutation($project: String!, $input: CreateFeatureInput!) { createFeature(project: $project, input: $input) { id } }`;
  const toggle = (on: boolean, project: string, feature: string, environment: string) =>
    gql(
      `mutation($project: String!, $feature: String!, $environment: String!) {
        ${on ? "enableFeatureEnvironment" : "disableFeatureEnvironment"}(project: $project, feature: $feature, environment: $environment) { id } }`,
      { project, feature, environment },
    );
  const strategy = (project: string, feature: string, environment: string, input: Record<string, unknown>) =>
    gql(
      `mutation($project: String!, $feature: String!, $environment: String!, $input: StrategyInput!) {
        addFeatureStrategy(project: $project, feature: $feature, environment: $environment, input: $input) { id } }`,
      { project, feature, environment, input },
    );

  for (const [id, name] of [
    ["payments", "Payments"],
    ["search", "Search"],
  ])
    await gql(`mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }`, {
      input: { id, name, description: `${name} team's flags` },
    });
  const flags: [string, string, string, string, string[]][] = [
    ["default", "new-checkout", "release", "The redesigned checkout flow", ["simple:checkout"]],
    ["default", "dark-mode", "experiment", "Dark theme for the storefront", ["simple:ui"]],
    ["default", "maintenance-banner", "operational", "Shows the maintenance banner", []],
    ["payments", "instant-refunds", "release", "Refunds without manual review", ["simple:payments"]],
    ["payments", "fraud-check-v2", "kill-switch", "Turns the new fraud checks off", []],
    ["search", "semantic-search", "experiment", "Vector search results", ["simple:search"]],
    ["search", "admin-reindex", "permission", "Lets support staff reindex", []],
  ];
  for (const [project, name, type, description, tags] of flags)
    await gql(flag, {
      project,
      input: {
        name,
        type,
        description,
        tags: tags.map((t) => ({ type: t.split(":")[0], value: t.split(":")[1] })),
      },
    });
  await strategy("default", "new-checkout", "production", {
    name: "flexibleRollout",
    title: "Gradual rollout",
    parameters: { rollout: "25", stickiness: "default", groupId: "new-checkout" },
    constraints: [{ contextName: "appName", operator: "IN", values: ["web", "ios"] }],
  });
  await strategy("default", "dark-mode", "production", {
    name: "userWithId",
    parameters: { userIds: "alice,bob" },
  });
  await strategy("payments", "instant-refunds", "production", {
    name: "flexibleRollout",
    parameters: { rollout: "10", stickiness: "userId", groupId: "refunds" },
  });

  for (const [project, name] of [
    ["default", "new-checkout"],
    ["default", "dark-mode"],
    ["payments", "instant-refunds"],
    ["search", "semantic-search"],
  ] as const) {
    await toggle(true, project, name, "development");
    await toggle(true, project, name, "production");
  }
  // History is stamped with the real clock: a second later, a second round of changes.
  const between = new Date();
  while (Date.now() < between.getTime() + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
  await toggle(false, "default", "dark-mode", "production");
  await toggle(true, "default", "maintenance-banner", "development");
  await strategy("default", "new-checkout", "production", {
    name: "userWithId",
    title: "Internal testers",
    parameters: { userIds: "qa-1,qa-2" },
  });
  await gql(
    `mutation { updateChangeRequestConfig(project: "payments", environment: "production", changeRequestsEnabled: true, requiredApprovals: 1) { environment } }`,
  );
  await gql(
    `mutation($changes: [ChangeRequestChangeInput!]!) {
      proposeChanges(project: "payments", environment: "production", changes: $changes) { id } }`,
    { changes: [{ action: "updateEnabled", feature: "fraud-check-v2", payload: { enabled: true } }] },
  );
  return { between: between.toISOString() };
}

async function main() {
  // Links the server builds (avatars) use its public URL: bind first to know it.
  const bound = createServer();
  await new Promise<void>((resolve) => bound.listen(0, "127.0.0.1", resolve));
  const { port } = bound.address() as AddressInfo;
  const database = openPglite(await createPglite("memory://"));
  await applyMigrations(database.adapterFactory);
  const config = loadConfig({
    ...process.env,
    VEXIL_URL: `http://127.0.0.1:${port}`,
    INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
    INIT_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "error",
  });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  const fixedNow: Date | null = null;
  const deps = {
    config,
    db: database.prisma,
    bus: createInProcessBus(),
    logger,
    now: () => fixedNow ?? new Date(),
  };
  const app = createApp({ ...deps, ready: async () => {} });
  const gql: Gql = async (query, variables) => {
    const response = await app.fetch("http://vexil.local/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ADMIN_TOKEN },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`${body.errors[0]?.message} in ${query.slice(0, 80)}`);
    return body.data ?? {};
  };
  const demo = await seed(gql);
  const server = await listen(app, "127.0.0.1", port, bound);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  await mkdir(OUT, { recursive: true });
  try {
    for (const shot of PAGES) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: shot.width ?? 1280, height: 900 },
      });
      await context.request.post("/auth/simple/login", { data: ADMIN });
      const page = await context.newPage();
      const path = typeof shot.path === "function" ? shot.path(demo) : shot.path;
      const saved = await capture(page, path, join(OUT, `${shot.name}.png`));
      console.log(`${saved ? "saved" : "skipped (no such page)"}: ${shot.name} ${path}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close(0);
    await app.close();
    await deps.bus.close();
    await database.close();
  }
}

/** Waits for the page's heading and for its data to load, then saves it; false for "Page not found". */
async function capture(page: Page, path: string, file: string): Promise<boolean> {
  await page.goto(path);
  await page.getByRole("button", { name: "Log out" }).waitFor();
  await page.locator("main h1").first().waitFor();
  if ((await page.locator("main h1").first().textContent()) === "Page not found") return false;
  await page.waitForLoadState("networkidle");
  await page
    .locator(".loading")
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => {});
  await page.screenshot({ path: file, fullPage: true });
  return true;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
