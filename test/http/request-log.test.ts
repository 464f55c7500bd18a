import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { observeStatements } from "../../src/db/sql-observer.ts";
import { countForRequest } from "../../src/http/request-log.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, lastEventId } from "../helpers/builders.ts";
import { sse } from "../live/live-helpers.ts";

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({}, { log: (line) => lines.push(line) });
});
afterAll(() => t?.close());

const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("request ids and the access log", () => {
  it("every answer has an x-request-id; a REST error's id is the same; one access-log line per request", async () => {
    const res = await t.app.fetch("http://vexil.test/api/admin/no-such-thing?secret=x", {
      headers: { authorization: ADMIN_TOKEN },
    });
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await res.json()).id).toBe(id);
    const line = entries().find((e) => e.requestId === id && e.msg === "request");
    expect(line).toMatchObject({
      level: "info",
      method: "GET",
      path: "/api/admin/no-such-thing",
      status: 404,
    });
    expect(typeof line?.ms).toBe("number");
    expect(JSON.stringify(line)).not.toContain("secret=x");
    const gql = await t.app.fetch("http://vexil.test/graphql", {
      method: "POST",
      headers: { authorization: ADMIN_TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ uiConfig { version } }" }),
    });
    expect(gql.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the id a proxy in front gave the request, if it is a plain token", async () => {
    const given = await t.app.fetch("http://vexil.test/api/admin/nope", {
      headers: { authorization: ADMIN_TOKEN, "x-request-id": "edge-1234.abc" },
    });
    expect(given.headers.get("x-request-id")).toBe("edge-1234.abc");
    expect((await given.json()).id).toBe("edge-1234.abc");
    const forged = await t.app.fetch("http://vexil.test/health", { headers: { "x-request-id": "<script>" } });
    expect(forged.headers.get("x-request-id")).not.toBe("<script>");
  });

  it("never writes a credential", () => {
    const written: string[] = [];
    const logger = createLogger("debug", (line) => written.push(line));
    logger.info("with secrets", {
      authorization: "*:*.abc",
      headers: { authorization: "Bearer x", cookie: "vexil-session=abc" },
      body: { password: "hunter2", token: "t" },
    });
    const text = written.join("");
    for (const secret of ["*:*.abc", "Bearer x", "vexil-session=abc", "hunter2"])
      expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
  });
});

describe("LOG_LEVEL=debug: SQL per request", () => {
  it("each access line carries its own request's statement count and time, also for concurrent requests", async () => {
    const debugLines: string[] = [];
    const d = await createTestApp(
      { LOG_LEVEL: "debug" },
      { log: (line) => debugLines.push(line), wrapAdapter: observeStatements(countForRequest) },
    );
    try {
      const lineOf = (res: Response) => {
        const id = res.headers.get("x-request-id");
        return debugLines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((e) => e.msg === "request" && e.requestId === id);
      };
      const list = () =>
        d.app.fetch("http://vexil.test/api/admin/projects", { headers: { authorization: ADMIN_TOKEN } });
      await list(); // the token is remembered from here on
      const alone = lineOf(await list());
      expect(alone?.sqlStatements).toBeGreaterThan(0);
      expect(typeof alone?.sqlMs).toBe("number");
      const together = await Promise.all([list(), list(), list()]);
      // A read that concurrent requests share counts once, for the request that started it.
      for (const res of together) {
        expect(lineOf(res)?.sqlStatements).toBeGreaterThan(0);
        expect(lineOf(res)?.sqlStatements).toBeLessThanOrEqual(alone?.sqlStatements as number);
      }
      const health = lineOf(await d.app.fetch("http://vexil.test/api/admin/nope"));
      expect(health?.sqlStatements).toBe(0);
    } finally {
      await d.close();
    }
  });

  it("at info, access lines carry no SQL figures", () => {
    const line = entries().find((e) => e.msg === "request");
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty("sqlStatements");
  });
});

describe("/metrics (Prometheus)", () => {
  it("admins read HTTP, GraphQL, pool, subscription and webhook figures; others are refused", async () => {
    await t.gql(`{ uiConfig { version } }`);
    await t.rest("GET", "/api/admin/ui-config");
    const res = await t.app.fetch("http://vexil.test/metrics", { headers: { authorization: ADMIN_TOKEN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(
      /vexil_http_request_duration_seconds_count\{surface="graphql",method="POST",status="2xx"\} \d+/,
    );
    expect(text).toMatch(
      /vexil_http_request_duration_seconds_count\{surface="rest",method="GET",status="2xx"\} \d+/,
    );
    expect(text).toMatch(/vexil_graphql_operation_duration_seconds_count\{type="query"\} \d+/);
    expect(text).toContain("vexil_live_subscriptions 0");
    expect(text).toMatch(/vexil_webhook_deliveries\{status="pending"\} 0/);
    expect(text).toContain("vexil_process_resident_memory_bytes");
    if (t.database.pool) expect(text).toMatch(/vexil_db_pool_connections\{state="total"\} \d+/);
    expect((await t.app.fetch("http://vexil.test/metrics")).status).toBe(401);
    const client = await apiToken(t, "client", "development", ["*"]);
    const refused = await t.app.fetch("http://vexil.test/metrics", { headers: { authorization: client } });
    expect(refused.status).toBe(403);
  });

  it("the event bus lag: every event handed out to live subscribers is measured", async () => {
    const metric = async () => {
      const res = await t.app.fetch("http://vexil.test/metrics", { headers: { authorization: ADMIN_TOKEN } });
      return Number(/vexil_event_bus_lag_seconds_count (\d+)/.exec(await res.text())?.[1]);
    };
    const before = await metric();
    const afterId = await lastEventId(t);
    const stream = sse<{ events: { type: string } }>(
      t.app,
      "subscription($afterId: Long) { events(afterId: $afterId) { type } }",
      { afterId },
    );
    // An event committed before the stream attaches to the feed arrives by replay (not
    // measured): write until one is handed out live, which happens once the stream is attached.
    for (let i = 0; i < 5 && (await metric()) === before; i++) {
      const next = stream.next();
      await createFlag(t, `lag-measured-${i}`);
      expect((await next).value?.data?.events.type).toBe("feature-created");
    }
    await stream.return(undefined);
    expect(await metric()).toBeGreaterThan(before);
  });
});

describe("what the access log keeps at info", () => {
  const lineFor = (res: Response) => {
    const id = res.headers.get("x-request-id");
    return entries().find((e) => e.msg === "request" && e.requestId === id);
  };

  it("SDK answers, assets and probes that succeed are debug lines; their failures are not", async () => {
    const client = await apiToken(t, "client", "development", ["*"]);
    const sdk = await t.app.fetch("http://vexil.test/api/client/features", {
      headers: { authorization: client },
    });
    expect(sdk.status).toBe(200);
    expect(lineFor(sdk)).toMatchObject({ level: "debug", path: "/api/client/features" });
    const health = await t.app.fetch("http://vexil.test/health");
    expect(lineFor(health)).toMatchObject({ level: "debug", status: 200 });
    const refused = await t.app.fetch("http://vexil.test/api/client/features", {
      headers: { authorization: "*:development.not-a-token" },
    });
    expect(refused.status).toBe(401);
    expect(lineFor(refused)).toMatchObject({ level: "info", status: 401 });
    const admin = await t.app.fetch("http://vexil.test/api/admin/projects", {
      headers: { authorization: ADMIN_TOKEN },
    });
    expect(lineFor(admin)).toMatchObject({ level: "info", status: 200 });
  });

  it("a GraphQL line names its operation and, when it answered errors with 200, their codes", async () => {
    const post = (body: object) =>
      t.app.fetch("http://vexil.test/graphql", {
        method: "POST",
        headers: { authorization: ADMIN_TOKEN, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post({ query: "query Version { uiConfig { version } }" });
    expect(lineFor(ok)).toMatchObject({ level: "info", status: 200, operation: "Version" });
    expect(lineFor(ok)).not.toHaveProperty("errorCodes");
    const failed = await post({
      query: `mutation MakeFlag($p: String!) { createFeature(project: $p, input: { name: "x" }) { name } }`,
      variables: { p: "no-such-project" },
      operationName: "MakeFlag",
    });
    expect(failed.status).toBe(200);
    const line = lineFor(failed);
    expect(line).toMatchObject({ operation: "MakeFlag" });
    expect(line?.errorCodes).toEqual([
      ((await failed.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
    ]);
    const invalid = await post({ query: "query Wrong { noSuchField }" });
    expect(lineFor(invalid)).toMatchObject({ operation: "Wrong", errorCodes: ["GRAPHQL_VALIDATION_FAILED"] });
  });
});

describe("LOG_FORMAT=pretty", () => {
  it("writes readable lines, not JSON, with the message and fields", () => {
    const script = `import { createLogger } from "./src/shared/logger.ts";
      createLogger("info", "pretty").info("request", { path: "/api/admin/projects", status: 200 });`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    const text = run.stderr.trim();
    expect(text).toMatch(/INFO.*request/);
    expect(text).toContain('path: "/api/admin/projects"');
    expect(() => JSON.parse(text)).toThrow();
  });
});
