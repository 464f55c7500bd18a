import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { runServerToExit } from "../helpers/server-process.ts";

let dir: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-config-"));
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(async () => {
  busy.close();
  await rm(dir, { recursive: true, force: true });
});

/** Starts the server with one bad setting; it must stop with one log line naming the variable. */
async function failedStart(name: string, env: Record<string, string>) {
  const dataDir = join(dir, name);
  const { code, lines } = await runServerToExit({
    VEXIL_DATA_DIR: dataDir,
    ...env,
  });
  expect(code).toBe(1);
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]!) as { level: string; msg: string; problems: { variable: string }[] };
  expect(line.level).toBe("error");
  // Nothing was created and no secret was printed before the refusal.
  expect(existsSync(dataDir)).toBe(false);
  return line;
}

describe.concurrent("configuration errors stop the start with one log line", () => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ["database-url", { DATABASE_URL: "mysql://root@localhost/vexil" }, "DATABASE_URL", /postgresql:\/\//],
    ["redis-url", { REDIS_URL: "localhost:6379" }, "REDIS_URL", /redis:\/\//],
    ["vexil-url", { VEXIL_URL: "vexil.example.com" }, "VEXIL_URL", /http/],
    [
      "admin-tokens",
      { INIT_ADMIN_API_TOKENS: "*:*.good-secret, just-a-secret" },
      "INIT_ADMIN_API_TOKENS",
      /entry 2 .*project:environment\.secret/,
    ],
    ["pool", { DATABASE_POOL_MAX: "0" }, "DATABASE_POOL_MAX", /./],
    [
      "otlp",
      { OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" },
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      /http\(s\) URL/,
    ],
  ];
  for (const [name, env, variable, reason] of cases) {
    it(`names ${variable}`, async () => {
      const line = await failedStart(name, env);
      expect(line.problems.map((p) => p.variable)).toEqual([variable]);
      expect(line.msg).toContain(variable);
      expect(line.msg).toMatch(reason);
    }, 60_000);
  }

  it("names PORT when the port is in use, before the admin password is printed", async () => {
    const line = await failedStart("port", { PORT: String(busyPort) });
    expect(line.problems.map((p) => p.variable)).toEqual(["PORT"]);
    expect(line.msg).toContain(`${busyPort} on 127.0.0.1 is already in use`);
  }, 60_000);
});

describe("defaults", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PORT: "5151" });
  });
  afterAll(() => t.close());

  it("VEXIL_URL follows PORT when unset", async () => {
    const res = await t.rest("GET", "/api/admin/ui-config");
    expect(res.body.unleashUrl).toBe("http://localhost:5151");
  });
});
