// What `npm run build` (scripts/build.mjs) makes, from what, and which of it is out of date.
// Apart from build.mjs so the tests' global setup can ask in process, and start node with the
// build only when something is stale (a node start with build.mjs costs ~0.2 s of each run).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
export const dist = join(root, "dist");
export const bundles = [
  {
    entries: { server: "src/server.ts", "pglite-thread.worker": "src/db/pglite-thread.worker.ts" },
    outputs: [join(dist, "server.js"), join(dist, "pglite-thread.worker.js")],
  },
  { entries: { migrate: "scripts/migrate.ts" }, outputs: [join(dist, "migrate.js")], external: true },
];
export const template = join(dist, "pglite-template");
// initdb keeps its files' original dates, so the template's age is kept in a file beside it,
// with the PGlite version that made it (npm gives installed files a fixed old date).
export const templateStamp = `${template}.stamp`;
const uiTypes = join(root, "ui/src/graphql-env.d.ts");
const restTypes = join(root, "src/generated/graphql-env.d.ts");
const uiIndex = join(root, "ui/dist/index.html");
const CODE = [
  "src",
  "rest",
  "scripts/migrate.ts",
  "scripts/build.mjs",
  "scripts/build-state.mjs",
  "package.json",
  "tsconfig.json",
];
const DATABASE = ["prisma/migrations", "src/db"];
const UI = ["ui/src", "ui/index.html", "ui/vite.config.ts", "schema/schema.graphql", "package.json"];

/** Newest modification time under the given paths (files and folders, recursively). */
export function newest(paths) {
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

export function pgliteVersion() {
  return JSON.parse(readFileSync(join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"))
    .version;
}

/** The parts of the build older than their sources (or missing). */
export function staleParts() {
  return {
    code: bundles.some((b) => b.outputs.some((output) => isOlderThan(output, CODE))),
    template:
      !existsSync(join(template, "PG_VERSION")) ||
      isOlderThan(templateStamp, DATABASE) ||
      readFileSync(templateStamp, "utf8").trim() !== `pglite ${pgliteVersion()}`,
    types: [uiTypes, restTypes].filter((output) => isOlderThan(output, ["schema/schema.graphql"])),
    ui: isOlderThan(uiIndex, UI),
  };
}

export function isStale() {
  const parts = staleParts();
  return parts.code || parts.template || parts.types.length > 0 || parts.ui;
}
