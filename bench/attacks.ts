/**
 * The denial-of-service attacks of issue 12 (item 4) against a real server process, with the
 * server's RSS and the latency of /health while they run. Run: `npm run bench:attacks`
 * (optionally `VEXIL_ROOT=<another checkout>` to measure a different version the same way).
 * Figures go to docs/performance.md; nothing here is a pass/fail test.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const ROOT = process.env.VEXIL_ROOT ?? new URL("../", import.meta.url).pathname;
const TOKEN = "*:*.bench-attack-secret-0123456789";

async function startServer() {
  const dataDir = await mkdtemp(join(tmpdir(), "vexil-attack-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      VEXIL_DATA_DIR: dataDir,
      INIT_ADMIN_API_TOKENS: TOKEN,
      INIT_ADMIN_PASSWORD: "Bench-Password-1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        const m = /"url":"([^"]+)".*"msg":"Vexil listening"/.exec(line);
        if (m?.[1]) resolve(m[1]);
      });
    }
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return {
    url,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** 500 aliases of `__schema`, padded to 32 KB: `small` selects one name (~4,500 tokens), else every type's fields. */
function aliasAttack(selection: string): string {
  const fields = Array.from({ length: 500 }, (_, i) => `a${i}: __schema { ${selection} }`);
  const query = `{ ${fields.join(" ")} }`;
  return JSON.stringify({ query: `${query}${" ".repeat(Math.max(0, 32 * 1024 - query.length))}` });
}

async function timed(run: () => Promise<Response>) {
  const start = performance.now();
  const res = await run();
  const bytes = (await res.arrayBuffer()).byteLength;
  return {
    status: res.status,
    ms: Math.round(performance.now() - start),
    responseKb: Math.round(bytes / 1024),
  };
}

/**
 * A 100 MB chunked body, sent as fast as the server reads it; resolves with the status (0 when
 * the server closed the connection first) and the megabytes the client got to send.
 */
function hugeBody(url: string): Promise<{ status: number; sentMb: number }> {
  return new Promise((resolve) => {
    const req = request(`${url}/api/admin/projects`, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    let done = false;
    req.on("response", (res) => {
      done = true;
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, sentMb: sent }));
    });
    req.on("error", () => {
      if (!done) resolve({ status: 0, sentMb: sent });
    });
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (!done && sent < 100) {
        sent += 1;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    req.write('{"id":"');
    pump();
  });
}

async function main() {
  const server = await startServer();
  const post = (body: string, token?: string) =>
    fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) },
      body,
    });
  const attack = aliasAttack("types { name fields { name } }");
  const small = aliasAttack("queryType { name }");
  const report: Record<string, unknown> = { root: ROOT, rssAtStartMb: Math.round(await server.rssMb()) };
  report.smallUnauthenticated = await timed(() => post(small));
  report.smallWithToken = await timed(() => post(small, TOKEN));
  report.oneUnauthenticated = await timed(() => post(attack));
  report.oneWithToken = await timed(() => post(attack, TOKEN));
  const before = await server.rssMb();
  const parallel = Promise.all([1, 2, 3].map(() => timed(() => post(attack))));
  const health = await timed(() => fetch(`${server.url}/health`));
  report.threeInParallel = await parallel;
  report.healthDuringThree = health;
  report.rssGrowthAfterThreeMb = Math.round((await server.rssMb()) - before);
  const beforeBody = await server.rssMb();
  const bodyStart = performance.now();
  report.body100MbUnauthenticated = {
    ...(await hugeBody(server.url)),
    ms: Math.round(performance.now() - bodyStart),
  };
  report.rssGrowthAfterBodyMb = Math.round((await server.rssMb()) - beforeBody);
  report.rssAtEndMb = Math.round(await server.rssMb());
  console.log(JSON.stringify(report, null, 2));
  await server.stop();
}

await main();
