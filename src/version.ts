import { readFileSync } from "node:fs";

/** Vexil's version, from package.json (read once at start). */
export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;
