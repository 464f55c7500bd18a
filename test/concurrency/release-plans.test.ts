import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.ts";
import { bootstrap } from "../../src/bootstrap.ts";
import { loadConfig } from "../../src/config.ts";
import { type Database, openPostgres } from "../../src/db/database.ts";
import { createInProcessBus } from "../../src/events/bus.ts";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, apiClient } from "../helpers/app.ts";
import { type Api, apiToken, createFlag, gqlOk } from "../helpers/builders.ts";
import { serverStorage } from "../live/processes.ts";
import { rollout as rolloutTo } from "../release-plans/fixtures.ts";

/**
 * Release plans on two nodes sharing one PostgreSQL (issue 41, "the same with two nodes"): both
 * run the evaluation pass at once, again and again, and a tripping safeguard rolls the plan
 * back exactly once, with exactly one safeguard-triggered event. Each node has its own pool, as
 * two processes would.
 */
type Node = { app: App; database: Database; api: Api; close(): Promise<void> };

async function startNode(url: string): Promise<Node> {
  const database = openPostgres(url);
  const config = loadConfig({
    DATABASE_URL: url,
    INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
    VEXIL_METRICS_FLUSH_MS: "0",
  });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  const bus = createInProcessBus();
  const app = createApp({ config, db: database.prisma, bus, logger, now: () => new Date() });
  return {
    app,
    database,
    api: apiClient((u, init) => app.fetch(u, init), "http://vexil.test"),
    async close() {
      await app.close();
      await bus.close();
      await database.close();
    },
  };
}

const TARGET = `project: "default", feature: "two-nodes", environment: "development"`;
const rollout = (percent: number) => rolloutTo(percent, "two-nodes");

let storage: Awaited<ReturnType<typeof serverStorage>>;
let a: Node;
let b: Node;
let secret: string;

async function report(value: number) {
  const body = {
    appName: "shop",
    impactMetrics: [{ name: "errors", help: "errors", type: "counter", samples: [{ labels: {}, value }] }],
  };
  expect((await a.api.rest("POST", "/api/client/metrics", body, secret)).status).toBe(202);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("release plans on two nodes", () => {
  beforeAll(async () => {
    storage = await serverStorage();
    a = await startNode(storage.url as string);
    b = await startNode(storage.url as string);
    secret = await apiToken(a.api, "client", "development", ["*"]);
    await createFlag(a.api, "two-nodes", { enabledIn: ["development"] });
    await report(0);
    const template = await gqlOk(
      a.api,
      `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
      {
        input: {
          name: "two",
          milestones: [
            { name: "10 %", strategies: [rollout(10)] },
            { name: "50 %", strategies: [rollout(50)] },
          ],
        },
      },
    );
    const plan = await gqlOk(
      a.api,
      `mutation($tpl: String!) { applyReleaseTemplate(${TARGET}, template: $tpl, start: true,
        safeguards: [{ metricName: "errors", aggregationMode: "sum", operator: ">", threshold: 3, windowSeconds: 300 }]) {
        milestones { databaseId } } }`,
      { tpl: template.createReleaseTemplate.databaseId },
    );
    const second = plan.applyReleaseTemplate.milestones[1].databaseId;
    await gqlOk(b.api, `mutation { startReleaseMilestone(${TARGET}, milestone: "${second}") { state } }`);
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await storage?.drop();
  });

  it("skips a plan another node holds (SKIP LOCKED)", async () => {
    await report(10);
    const pool = a.database.pool;
    if (!pool) throw new Error("PostgreSQL has a pool");
    const holder = await pool.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "ReleasePlan" WHERE "featureName" = 'two-nodes' FOR UPDATE`);
      expect((await runReleasePlansOnce(b.app.scope)).size).toBe(0);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
  });

  it("rolls back exactly once when both nodes evaluate at once, again and again", async () => {
    for (let round = 0; round < 5; round++) {
      await Promise.all([runReleasePlansOnce(a.app.scope), runReleasePlansOnce(b.app.scope)]);
    }
    const db = a.database.prisma;
    expect(await db.event.count({ where: { type: "safeguard-triggered" } })).toBe(1);
    const rollbacks = await db.event.findMany({ where: { type: "release-plan-milestone-started" } });
    expect(rollbacks.filter((e) => (e.data as { cause: string }).cause === "rollback")).toHaveLength(1);
    const plan = await gqlOk(
      b.api,
      `{ releasePlan(${TARGET}) { state activeMilestone { name } pauseReason } }`,
    );
    expect(plan.releasePlan).toMatchObject({
      state: "PAUSED",
      activeMilestone: { name: "10 %" },
      pauseReason: { value: 10 },
    });
  });
});
