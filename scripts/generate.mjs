// Runs `prisma generate` without the native schema engine, which cannot be downloaded here
// (and is not needed to generate: the client is TypeScript + WASM). See docs/decisions.md D-08.
// Then patches the client to load its query compiler without keeping its text (below).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");
const root = fileURLToPath(new URL("..", import.meta.url));
const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  stdio: "inherit",
  cwd: root,
  env: {
    ...process.env,
    // generators such as prisma-pothos-types are resolved from PATH
    PATH: [join(root, "node_modules", ".bin"), process.env.PATH].join(delimiter),
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
if (result.status !== 0) process.exit(result.status ?? 1);

// The generated client imports Prisma's query compiler as a module exporting its WebAssembly as
// a base64 string: the module's source and that string (4.4 MB each) then stay in the heap for
// as long as the server runs. Read the same file, compile it, and let the text go instead
// (idle heap -9 MB). Fails when Prisma generates something else, rather than patching blindly.
const clientClass = join(root, "src/generated/prisma/internal/class.ts");
const imported = `  getQueryCompilerWasmModule: async () => {
    const { wasm } = await import("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.mjs")
    return await decodeBase64AsWasm(wasm)
  },`;
const readAndDropped = `  getQueryCompilerWasmModule: async () => {
    // Vexil (scripts/generate.mjs): the base64 text is read, compiled and dropped, not imported.
    const { readFile } = await import("node:fs/promises")
    const { createRequire } = await import("node:module")
    const file = createRequire(import.meta.url).resolve("@prisma/client/runtime/query_compiler_fast_bg.postgresql.wasm-base64.js")
    const text = await readFile(file, "utf8")
    const start = text.indexOf('"') + 1
    return await decodeBase64AsWasm(text.slice(start, text.indexOf('"', start)))
  },`;
const generated = readFileSync(clientClass, "utf8");
if (!generated.includes(imported)) {
  console.error(
    `${clientClass}: Prisma's query compiler is no longer imported as scripts/generate.mjs expects; update it.`,
  );
  process.exit(1);
}
writeFileSync(clientClass, generated.replace(imported, readAndDropped));
