/**
 * Replays the same REST requests against an Unleash 8.2 and a Vexil and writes
 * docs/unleash-parity.md (docs/guides/peer-diff.md). Not part of `npm test`: it needs PostgreSQL
 * and Unleash. `npm run peer-diff [-- --report-only]`; environment: PEER_PG_URL, PEER_UNLEASH_DIR,
 * PEER_UNLEASH_URL / PEER_VEXIL_URL (use running servers; they must be fresh), PEER_UNLEASH_PORT,
 * PEER_VEXIL_PORT.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { tableOpenApiDocument } from "../rest/table.ts";
import { loadConfig } from "../src/config.ts";
import { compare } from "./peer-diff/compare.ts";
import {
  concretePath,
  type Operation,
  referenceOperations,
  replayOrder,
  requestsOf,
} from "./peer-diff/corpus.ts";
import { call, type Fixture, seed } from "./peer-diff/fixtures.ts";
import { type Result, type Run, renderReport } from "./peer-diff/report.ts";
import { type PeerOptions, type Running, startUnleash, startVexil } from "./peer-diff/servers.ts";

const repo = resolve(import.meta.dirname, "..");
const env = process.env;
const RESULTS = "/tmp/peer-diff-results.json";
const REPORT = resolve(repo, "docs/unleash-parity.md");
const reference = resolve(env.PEER_REFERENCE ?? resolve(repo, "../shared/reference/unleash-operations.md"));
const options: PeerOptions = {
  pgUrl: env.PEER_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  unleashDir: env.PEER_UNLEASH_DIR ?? "/tmp/unleash82",
  unleashUrl: env.PEER_UNLEASH_URL,
  vexilUrl: env.PEER_VEXIL_URL,
  unleashPort: Number(env.PEER_UNLEASH_PORT ?? 4250),
  vexilPort: Number(env.PEER_VEXIL_PORT ?? 4251),
};

/** Writes the report laid out as the repository's formatter lays out Markdown tables. */
function writeReport(run: Run) {
  writeFileSync(REPORT, renderReport(run));
  execFileSync("npx", ["biome", "format", "--write", REPORT], { cwd: repo, stdio: "ignore" });
}

const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`;

function servedOperations(operations: Operation[]): string[] {
  const doc = tableOpenApiDocument(loadConfig({}));
  const served = new Set<string>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of Object.keys(methods as object)) served.add(shape(method, path));
  }
  return operations.filter((o) => served.has(shape(o.method, o.path))).map((o) => `${o.method} ${o.path}`);
}

async function replay(vexil: Running, unleash: Running, operations: Operation[], served: Set<string>) {
  const [ours, theirs]: Fixture[] = [await seed(vexil.url), await seed(unleash.url)];
  const results: Result[] = [];
  const ordered = operations.filter((o) => served.has(`${o.method} ${o.path}`)).sort(replayOrder);
  for (const operation of ordered) {
    for (const { body, ...request } of requestsOf(operation)) {
      const send = (base: string, fixture: Fixture) =>
        call(
          base,
          operation.method,
          concretePath(operation.path, fixture.ids),
          body,
          fixture.credentials[request.caller],
        );
      const [a, b] = [await send(vexil.url, ours as Fixture), await send(unleash.url, theirs as Fixture)];
      results.push({ request, outcome: compare(a, b) });
    }
  }
  return results;
}

async function main() {
  const operations = referenceOperations(reference);
  if (process.argv.includes("--report-only")) {
    const run = JSON.parse(readFileSync(RESULTS, "utf8")) as Run;
    writeReport(run);
    console.log(`wrote ${REPORT} from ${RESULTS}`);
    return;
  }
  const served = servedOperations(operations);
  const started: Running[] = [];
  try {
    const unleash = await startUnleash(options);
    started.push(unleash);
    const vexil = await startVexil(options, repo);
    started.push(vexil);
    const version = (await (
      await fetch(`${unleash.url}/api/admin/ui-config`, { headers: { authorization: "*:*.peerdiffadmin" } })
    ).json()) as { version?: string };
    const results = await replay(vexil, unleash, operations, new Set(served));
    const run: Run = {
      commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repo, encoding: "utf8" }).trim(),
      unleashVersion: version.version ?? "unknown",
      at: new Date().toISOString().slice(0, 10),
      operations,
      served,
      results,
    };
    writeFileSync(RESULTS, JSON.stringify(run));
    writeReport(run);
    console.log(`wrote ${REPORT}: ${results.length} requests; raw results in ${RESULTS}`);
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}

await main();
