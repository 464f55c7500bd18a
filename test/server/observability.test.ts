import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

// A started process with LOG_LEVEL=debug and an OTLP endpoint: the debug access lines carry
// each request's SQL, and traces reach the collector (a stand-in OTLP/HTTP receiver here).

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
};

const TOKEN = "*:*.observability-test-secret";
let dataDir: string;
let postgres: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
let server: ServerProcess;
let collector: Server;
const spans: OtlpSpan[] = [];
let spansArrived: () => void = () => {};

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const payload = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of payload.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      spansArrived();
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const port = (collector.address() as AddressInfo).port;
  dataDir = await mkdtemp(join(tmpdir(), "vexil-obs-"));
  postgres = await emptyPostgresDatabase();
  server = await startServerProcess({
    INIT_ADMIN_API_TOKENS: TOKEN,
    INIT_ADMIN_PASSWORD: "Observability-Password-1",
    VEXIL_DATA_DIR: join(dataDir, "data"),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    LOG_LEVEL: "debug",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: "vexil-under-test",
  });
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
  await new Promise((resolve) => collector?.close(resolve));
});

/** Resolves once spans matching `done` have been received. */
function spansUntil(done: (all: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  return new Promise((resolve) => {
    const check = () => {
      if (done(spans)) resolve(spans);
    };
    spansArrived = check;
    check();
  });
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe("a server with LOG_LEVEL=debug and an OTLP endpoint", () => {
  it("logs each request's SQL statement count and time on its access line", async () => {
    const res = await fetch(`${server.url}/api/admin/projects`, { headers: { authorization: TOKEN } });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    // The access line is written when the response has finished, and logs are written
    // asynchronously: it may reach the output after the answer does.
    const accessLine = () =>
      server.output
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((entry) => entry.msg === "request" && entry.requestId === id);
    await expect.poll(accessLine).toBeDefined();
    const line = accessLine();
    expect(line?.sqlStatements).toBeGreaterThan(0);
    expect(typeof line?.sqlMs).toBe("number");
  });

  it("exports a trace per request that continues the caller's traceparent: HTTP, GraphQL execution, Prisma queries", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: TOKEN,
        traceparent: `00-${traceId}-${callerSpan}-01`,
      },
      body: JSON.stringify({ query: "query Projects { projects { id name } }" }),
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");
    const all = await spansUntil((s) => {
      const ours = s.filter((span) => span.traceId === traceId);
      return ours.some((span) => span.kind === 2) && ours.some((span) => span.name.startsWith("prisma:"));
    });
    const ours = all.filter((span) => span.traceId === traceId);
    const http = ours.find((span) => span.kind === 2); // SERVER
    expect(http?.name).toBe("POST graphql");
    expect(http?.parentSpanId).toBe(callerSpan);
    expect(attribute(http as OtlpSpan, "vexil.request_id")).toBe(requestId);
    expect(String(attribute(http as OtlpSpan, "http.response.status_code"))).toBe("200");
    const execute = ours.find((span) => span.name === "graphql.execute query Projects");
    expect(execute?.parentSpanId).toBe(http?.spanId);
    // Prisma's spans hang under the execution (its operation span, then its queries).
    const byId = new Map(ours.map((span) => [span.spanId, span]));
    const underExecute = (span: OtlpSpan): boolean => {
      for (let p = span.parentSpanId; p; p = byId.get(p)?.parentSpanId)
        if (p === execute?.spanId) return true;
      return false;
    };
    const prisma = ours.filter((span) => span.name.startsWith("prisma:"));
    expect(prisma.length).toBeGreaterThan(0);
    expect(prisma.some(underExecute)).toBe(true);
  });
});
