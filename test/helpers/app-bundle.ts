import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Plugin } from "vite";
import { newest, root as ROOT } from "../../scripts/build-state.mjs";

/**
 * The tests' copy of Vexil's code (src/, rest/, scripts/), bundled by esbuild into a few ES
 * modules that Node loads itself. Through Vitest's module runner each of the ~500 modules is
 * fetched from the main process, wrapped and compiled one by one: that was most of the 2-4 s a
 * single test file waited before its first test. One entry per module a test file imports, so
 * a test reaches the same instances as the code under test (one realm: one `prisma`, one
 * `GraphQLError`); npm packages stay external, so tests and bundle share them too.
 * Rebuilt before a run when a source, or the set of modules tests import, has changed.
 * See docs/guides/run-tests-and-benchmarks.md.
 */
const OUT = join(ROOT, "node_modules", ".cache", "vexil-test-modules");
const STAMP = join(OUT, "stamp.json");
const CODE = ["src", "rest", "scripts"];
const CONFIG = ["package.json", "tsconfig.json", "test/helpers/app-bundle.ts"];
/** Static imports and re-exports (not `import type`), and `import()` of a string literal. */
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
const WORKER = "src/db/pglite-thread.worker.ts";

export function appBundle(): Plugin {
  let entries = new Set<string>();
  // Watch mode keeps the sources: Vite reloads an edited module in place, which Node cannot do
  // for a bundle it loaded.
  let watching = true;
  return {
    name: "vexil-app-bundle",
    enforce: "pre",
    async configureVitest({ vitest, experimental_defineCacheKeyGenerator }) {
      watching = vitest.config.watch;
      // Vitest keeps transformed test files on disk with their imports resolved: one copy each way.
      experimental_defineCacheKeyGenerator(() => (watching ? "sources" : "bundle"));
      if (watching) return;
      entries = new Set(importedModules());
      await bundleIfStale([...entries]);
    },
    resolveId(source, importer) {
      if (watching || !importer || importer.startsWith(OUT) || !source.startsWith(".")) return null;
      const target = resolve(dirname(importer), source);
      const module = relative(ROOT, target);
      if (!isCode(module)) return null;
      if (!entries.has(module)) {
        throw new Error(
          `${relative(ROOT, importer)} imports ${module} in a way test/helpers/app-bundle.ts does not see: import it with a plain import statement or import("…") of a string literal`,
        );
      }
      return outputOf(module);
    },
  };
}

function isCode(module: string): boolean {
  return module.endsWith(".ts") && CODE.some((dir) => module.startsWith(`${dir}/`));
}

function outputOf(module: string): string {
  return join(OUT, module.replace(/\.ts$/, ".js"));
}

/** The modules of src/, rest/ and scripts/ that a test file or helper imports (not types only). */
function importedModules(): string[] {
  const modules = new Set<string>();
  for (const file of filesUnder(join(ROOT, "test"))) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier?.startsWith(".")) continue;
      const module = relative(ROOT, resolve(dirname(file), specifier));
      if (isCode(module)) modules.add(module);
    }
  }
  return [...modules].sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function bundleIfStale(modules: string[]): Promise<void> {
  const stamp = JSON.stringify({
    newest: newest([...CODE, ...CONFIG].map((path) => join(ROOT, path))),
    modules,
  });
  if (existsSync(STAMP) && readFileSync(STAMP, "utf8") === stamp) return;
  const esbuild = await import("esbuild");
  // Built aside, then moved in place: a run starting meanwhile never sees half a bundle.
  const staging = `${OUT}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  // The PGlite thread's worker is a file beside the module that starts it (pglite-thread.ts):
  // that module lands in a chunk at the root or in its own entry's folder, so the worker is
  // written to both places.
  const entryPoints = [
    ...modules.map((module) => ({ in: join(ROOT, module), out: module.replace(/\.ts$/, "") })),
    { in: join(ROOT, WORKER), out: "pglite-thread.worker" },
    ...(modules.includes(WORKER) ? [] : [{ in: join(ROOT, WORKER), out: WORKER.replace(/\.ts$/, "") }]),
  ];
  try {
    await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints,
      outdir: staging,
      bundle: true,
      splitting: true,
      platform: "node",
      target: "node20",
      format: "esm",
      packages: "external",
      // CommonJS packages are external, so no bundled code calls require() (createRequire does).
      sourcemap: true,
      sourcesContent: false,
      logLevel: "warning",
    });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  writeFileSync(join(staging, "stamp.json"), stamp);
  rmSync(OUT, { recursive: true, force: true });
  renameSync(staging, OUT);
}
