// `npm run build`: compiles Vexil to JavaScript in dist/, so `npm start` runs plain node.
// - dist/server.js (+ .map): one ES module bundling Vexil's own code (src/, rest/, the generated
//   Prisma client); npm packages stay external, loaded from node_modules as usual.
// - dist/migrate.js: `scripts/migrate.ts`, used here to make the template below.
// - dist/pglite-template/: a migrated, empty PGlite data folder. A first start on a new data
//   folder copies it instead of running initdb (seconds of WebAssembly CPU).
// See docs/decisions.md ("Build").
//   node scripts/build.mjs             build what is out of date
//   node scripts/build.mjs --if-stale  the same, silent when nothing is (npm's prestart)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const bundles = [
  { entry: "src/server.ts", outfile: join(dist, "server.js") },
  { entry: "scripts/migrate.ts", outfile: join(dist, "migrate.js") },
];
const template = join(dist, "pglite-template");
const CODE = ["src", "rest", "scripts/migrate.ts", "package.json", "tsconfig.json"];
const DATABASE = ["prisma/migrations", "src/db"];
const quiet = process.argv.includes("--if-stale");

/** Newest modification time under the given paths (files and folders, recursively). */
function newest(paths) {
  let latest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    latest = Math.max(latest, stat.mtimeMs);
    if (stat.isDirectory()) {
      latest = Math.max(latest, newest(readdirSync(path).map((name) => join(path, name))));
    }
  }
  return latest;
}

const isOlderThan = (output, inputs) =>
  !existsSync(output) || statSync(output).mtimeMs < newest(inputs.map((p) => join(root, p)));

const codeStale = bundles.some((b) => isOlderThan(b.outfile, CODE));
// initdb keeps its files' original dates, so the template's age is kept in a file beside it,
// with the PGlite version that made it (npm gives installed files a fixed old date).
const templateStamp = `${template}.stamp`;
const pgliteVersion = JSON.parse(
  readFileSync(join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
).version;
const templateStale =
  !existsSync(join(template, "PG_VERSION")) ||
  isOlderThan(templateStamp, DATABASE) ||
  readFileSync(templateStamp, "utf8").trim() !== `pglite ${pgliteVersion}`;

if (codeStale) {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    // A production install without devDependencies: run the dist/ that was built beforehand.
    if (bundles.every((b) => existsSync(b.outfile))) process.exit(0);
    console.error("esbuild is not installed and dist/ is missing: run `npm install` with dev dependencies.");
    process.exit(1);
  }
  const started = performance.now();
  for (const { entry, outfile } of bundles) {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      packages: "external",
      sourcemap: true,
      logLevel: "warning",
    });
  }
  console.log(
    `built ${bundles.map((b) => b.outfile.slice(root.length)).join(", ")} in ${Math.round(performance.now() - started)} ms`,
  );
} else if (!quiet) {
  console.log("dist/*.js are up to date");
}

if (templateStale) {
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
  writeFileSync(templateStamp, `pglite ${pgliteVersion}\n`);
  console.log(`made dist/pglite-template in ${Math.round(performance.now() - started)} ms`);
}
