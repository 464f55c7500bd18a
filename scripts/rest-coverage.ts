/**
 * Which of Unleash 8.2's REST operations (../shared/reference/unleash-operations.md, or the path
 * given as the first argument) the REST layer serves, from the same OpenAPI document `/docs`
 * serves. Prints the missing ones by tag, then the count. `npx tsx scripts/rest-coverage.ts`
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { tableOpenApiDocument } from "../rest/table.ts";
import { loadConfig } from "../src/config.ts";

const referencePath = resolve(process.argv[2] ?? "../shared/reference/unleash-operations.md");
const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, "{}")}`;

const served = new Set<string>();
const doc = tableOpenApiDocument(loadConfig({}));
for (const [path, operations] of Object.entries(doc.paths)) {
  for (const method of Object.keys(operations as object)) served.add(shape(method, path));
}

const rows = readFileSync(referencePath, "utf8")
  .split("\n")
  .map((line) => line.match(/^\| ([^|]+) \| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/))
  .flatMap((m) => (m ? [{ tag: m[1] ?? "", method: m[2] ?? "", path: m[3] ?? "" }] : []));
const missing = rows.filter(({ method, path }) => !served.has(shape(method, path)));
let tag = "";
for (const { tag: rowTag, method, path } of missing) {
  if (rowTag !== tag) console.log(`\n${rowTag}`);
  tag = rowTag;
  console.log(`  ${method.padEnd(6)} ${path}`);
}
console.log(`\nserved ${rows.length - missing.length} of ${rows.length}; missing ${missing.length}`);

// Success statuses that differ from Unleash's document (the spec may decide otherwise: check it).
const unleash = JSON.parse(
  readFileSync(referencePath.replace(/unleash-operations\.md$/, "unleash-openapi.json"), "utf8"),
) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};
const unleashByShape = new Map<string, string[]>();
for (const [path, operations] of Object.entries(unleash.paths))
  for (const [method, operation] of Object.entries(operations))
    unleashByShape.set(
      shape(method, path),
      Object.keys(operation.responses ?? {}).filter((s) => s.startsWith("2")),
    );
for (const [path, operations] of Object.entries(doc.paths))
  for (const [method, operation] of Object.entries(
    operations as Record<string, { responses: Record<string, unknown> }>,
  )) {
    const theirs = unleashByShape.get(shape(method, path));
    const ours = Object.keys(operation.responses ?? {}).filter((s) => s.startsWith("2"));
    if (theirs && theirs.join() !== ours.join())
      console.log(`status: ${shape(method, path)} ours ${ours} Unleash ${theirs}`);
  }
