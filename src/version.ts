import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./shared/project-root.ts";

/** Vexil's version, from package.json (read once at start). */
export const VERSION: string = JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version;
