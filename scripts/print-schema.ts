// `npm run schema:print` writes schema/schema.graphql (sorted SDL of the code);
// `npm run schema:check` fails when the committed file differs from it.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { printSchema } from "graphql";
import { schema } from "../src/schema.ts";

const file = new URL("../schema/schema.graphql", import.meta.url);
const printed = `${printSchema(schema)}\n`;
if (process.argv.includes("--check")) {
  const committed = await readFile(file, "utf8").catch(() => "");
  if (committed !== printed) {
    console.error("schema/schema.graphql is stale: run `npm run schema:print` and commit it.");
    process.exit(1);
  }
  console.log("schema/schema.graphql is up to date.");
} else {
  await mkdir(new URL("../schema/", import.meta.url), { recursive: true });
  await writeFile(file, printed);
  console.log("wrote schema/schema.graphql");
}
