import { defineConfig } from "vitest/config";

// One database per test file (PGlite clone or PostgreSQL database from a migrated template),
// files in parallel on 2 workers: the machines have 2 cores.
export default defineConfig({
  // graphql 16 ships both .mjs and .js; Node (and so Pothos) loads the CommonJS build, Vite
  // would pick the .mjs one: two realms of GraphQL types. Pin Vite to the one Node uses.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: process.env.VEXIL_CPU_LOG ? ["test/helpers/cpu-log.ts"] : [],
    pool: "forks",
    maxWorkers: 2,
    // Test files share a worker's module graph: each still gets its own database and app,
    // and importing the server's modules once per worker instead of once per file halves the run.
    // A file that replaces a module with vi.mock (login-limits) needs its own graph, and the
    // browser tests (test/ui: a server, a database and Chromium each) a process of their own:
    // `npm test` runs them in a second, isolated pass (package.json).
    isolate: false,
    // `npm test` runs vitest several times (passes, then PostgreSQL in CI): transformed modules
    // kept on disk (node_modules/.experimental-vitest-cache) are transformed once, not per pass.
    experimental: { fsModuleCache: true },
    // Browser tests (test/ui) share the 2 cores with the rest of the suite: their waits get room.
    testTimeout: 60_000,
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 180_000,
  },
});
