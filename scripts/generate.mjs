// Runs `prisma generate` without the native schema engine, which cannot be downloaded here
// (and is not needed to generate: the client is TypeScript + WASM). See docs/decisions.md D-08.
import { spawnSync } from "node:child_process";
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
process.exit(result.status ?? 1);
