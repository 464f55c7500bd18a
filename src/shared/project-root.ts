import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/**
 * The folder holding Vexil's package.json (and prisma/). Found by walking up from this module,
 * so it is the same whether the code runs from its sources (src/…) or from the bundle (dist/).
 */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("package.json not found above the Vexil code");
    dir = parent;
  }
  root = dir;
  return root;
}
