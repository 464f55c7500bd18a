import { defineConfig } from "vitest/config";
import { appBundle } from "./test/helpers/app-bundle.ts";

// One database per test file (PGlite clone or PostgreSQL database from a migrated template),
// files in parallel on 2 workers: the machines have 2 cores. `npm test` is one run of this.
export default defineConfig({
  // Tests import Vexil's code from a bundle Node loads itself (test/helpers/app-bundle.ts).
  plugins: [appBundle()],
  // graphql 16 ships both .mjs and .js; Node (and so Pothos) loads the CommonJS build, Vite
  // would pick the .mjs one: two realms of GraphQL types. Pin Vite to the one Node uses.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: process.env.VEXIL_CPU_LOG ? ["test/helpers/cpu-log.ts"] : [],
    pool: "forks",
    maxWorkers: 2,
    // V8 compiles the workers' WebAssembly (PGlite's PostgreSQL, Prisma's query compiler) with
    // its baseline compiler only, as for the server processes tests start (server-process.ts):
    // the optimizing compiler's background work costs more CPU than its faster code saves in
    // a test's queries (20 files of test/flags, test/rest, test/access: 43-45 -> 34-36 s of CPU).
    execArgv: ["--liftoff-only"],
    include: ["test/**/*.test.ts"],
    // Test files share a worker's module graph: each still gets its own database and app (and
    // the browser tests, test/ui, contexts of their own), and the server's modules are imported
    // once per worker instead of once per file. So no file may replace a module (vi.mock).
    isolate: false,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache): CI runs the
    // suite twice (PGlite, then PostgreSQL), and the sources are transformed once.
    experimental: { fsModuleCache: true },
    // Browser tests (test/ui) share the 2 cores with the rest of the suite: their waits get room.
    testTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 180_000,
  },
});
