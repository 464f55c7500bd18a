// `npm run build`: compiles Vexil to JavaScript in dist/, so `npm start` runs plain node.
// - dist/server.js, dist/pglite-thread.worker.js and their shared chunks (+ .map): ES modules
//   bundling Vexil's code (src/, rest/, the generated Prisma client) with the pure-JavaScript npm
//   packages it uses, so a start reads a few files instead of resolving ~600 modules. Packages
//   that load files of their own at run time (WebAssembly, workers) stay external (EXTERNAL).
//   The code loaded after the database thread has started is a chunk of its own (splitting).
// - dist/migrate.js: `scripts/migrate.ts`, used here to make the template below.
// - dist/pglite-template/: a migrated, empty PGlite data folder. A first start on a new data
//   folder copies it instead of running initdb (seconds of WebAssembly CPU).
// - ui/dist/: the web UI (Vite), after ui/src/graphql-env.d.ts, the schema's types for the UI's
//   typed GraphQL documents (gql.tada), is generated from schema/schema.graphql (and the same
//   types in src/generated/graphql-env.d.ts for the REST routes' documents).
// See docs/decisions.md D-07.
//   node scripts/build.mjs             build what is out of date
//   node scripts/build.mjs --if-stale  the same, silent when nothing is (npm's prestart)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { bundles, dist, pgliteVersion, root, staleParts, template, templateStamp } from "./build-state.mjs";

/**
 * npm packages left out of the server bundle: they read WebAssembly or data files beside their
 * own modules (PGlite, Prisma, its schema engine), start worker threads from their own files
 * (pino's transports), use __dirname (ioredis), are loaded only when configured
 * (OpenTelemetry), or must be the same copy an external package uses (pg: @prisma/adapter-pg
 * checks `instanceof pg.Pool`).
 */
const EXTERNAL = [
  "@electric-sql/*",
  "@prisma/*",
  "pglite-prisma-adapter",
  "@opentelemetry/*",
  "ioredis",
  "pg",
  "pino",
];
/**
 * graphql 16 ships CommonJS (`main`) and ES modules (`module`, `.mjs` beside each file) without
 * an `exports` map, and esbuild picks `main` on Node. Bundled as CommonJS, every use of a
 * graphql export in the executor's hot loops (getFieldDef, completeValue) went through two
 * getters (esbuild's interop, then graphql's own re-export): ~2 % of a write's CPU. This
 * resolves every `graphql` import and require to the `.mjs` file, one copy, plain bindings.
 */
const graphqlAsEsm = {
  name: "graphql-as-esm",
  setup(build) {
    build.onResolve({ filter: /^graphql(\/.*)?$/ }, async (args) => {
      if (args.pluginData?.graphqlAsEsm) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { graphqlAsEsm: true },
      });
      const esm = resolved.path.replace(/\.js$/, ".mjs");
      return resolved.errors.length === 0 && existsSync(esm) ? { path: esm } : resolved;
    });
  },
};
const quiet = process.argv.includes("--if-stale");
const stale = staleParts();

if (stale.code) {
  mkdirSync(dist, { recursive: true });
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    // A production install without devDependencies: run the dist/ that was built beforehand.
    if (bundles.every((b) => b.outputs.every((output) => existsSync(output)))) process.exit(0);
    console.error("esbuild is not installed and dist/ is missing: run `npm install` with dev dependencies.");
    process.exit(1);
  }
  const started = performance.now();
  // Chunk names change with their content: clear the old ones.
  for (const old of readdirSync(dist).filter((name) => /\.js(\.map)?$/.test(name))) rmSync(join(dist, old));
  for (const { entries, external } of bundles) {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: entries,
      outdir: dist,
      bundle: true,
      splitting: true,
      platform: "node",
      target: "node20",
      format: "esm",
      ...(external ? { packages: "external" } : { external: EXTERNAL }),
      // Bundled CommonJS packages call require(): give the ES module one.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      plugins: [graphqlAsEsm],
      // Memory of the running server (issue 42): `--enable-source-maps` keeps each loaded map,
      // and without the sources' text in it the maps hold a third as much (idle RSS -30 MB);
      // V8 keeps every bundle's source text too, and without comments and indentation it is
      // smaller and plain ASCII, so one byte a character (heap -10 MB). Names are kept, so
      // profiles and stack traces still name functions; the maps give their lines.
      sourcemap: true,
      sourcesContent: false,
      minifyWhitespace: true,
      logLevel: "warning",
    });
  }
  const built = bundles.flatMap((b) => b.outputs.map((output) => output.slice(root.length)));
  console.log(`built ${built.join(", ")} in ${Math.round(performance.now() - started)} ms`);
} else if (!quiet) {
  console.log("dist/*.js are up to date");
}

if (stale.template) {
  const started = performance.now();
  const staging = `${template}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const run = spawnSync(process.execPath, [join(dist, "migrate.js")], {
    cwd: root,
    env: { ...env, VEXIL_DATA_DIR: staging },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (run.status !== 0) {
    console.error("could not make dist/pglite-template (a first start will run initdb instead)");
    rmSync(staging, { recursive: true, force: true });
    process.exit(1);
  }
  rmSync(template, { recursive: true, force: true });
  renameSync(staging, template);
  writeFileSync(templateStamp, `pglite ${pgliteVersion()}\n`);
  console.log(`made dist/pglite-template in ${Math.round(performance.now() - started)} ms`);
}

// The schema's types for the UI's and the REST routes' typed documents (gql.tada; rest/graphql.ts).
for (const output of stale.types) {
  const cli = join(dirname(createRequire(import.meta.url).resolve("gql.tada/package.json")), "bin/cli.js");
  const run = spawnSync(
    process.execPath,
    [cli, "generate-output", "-c", join(root, "ui/tsconfig.json"), "-o", output],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  if (run.status !== 0) process.exit(1);
}

if (stale.ui) {
  const started = performance.now();
  const { build } = await import("vite");
  await build({ configFile: join(root, "ui/vite.config.ts"), logLevel: "warn" });
  console.log(`built ui/dist in ${Math.round(performance.now() - started)} ms`);
}
