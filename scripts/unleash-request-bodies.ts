/**
 * Extracts the JSON request-body schemas of Unleash 8.2's OpenAPI document (Apache-2.0) into
 * test/rest/unleash-request-bodies.json, for test/rest/body-fields.test.ts: each operation's
 * schema and the component schemas it references, without descriptions.
 * `npx tsx scripts/unleash-request-bodies.ts [../shared/reference/unleash-openapi.json]`
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

type Json = unknown;
const source = resolve(process.argv[2] ?? "../shared/reference/unleash-openapi.json");
const doc = JSON.parse(readFileSync(source, "utf8")) as {
  info: { version: string };
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Json }> } }>>;
  components: { schemas: Record<string, Json> };
};

const needed = new Set<string>();
function collect(value: Json): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "$ref" && typeof inner === "string") {
      const name = inner.split("/").pop() ?? "";
      if (!needed.has(name)) {
        needed.add(name);
        collect(doc.components.schemas[name]);
      }
    } else collect(inner);
  }
}

/** The schema without its prose (string `description`s); property names stay. */
function strip(value: Json): Json {
  if (Array.isArray(value)) return value.map(strip);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, inner]) => !(key === "description" && typeof inner === "string"))
      .map(([key, inner]) => [key, strip(inner)]),
  );
}

const operations: Record<string, Json> = {};
for (const [path, methods] of Object.entries(doc.paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    const schema = operation.requestBody?.content?.["application/json"]?.schema;
    if (!schema) continue;
    operations[`${method.toUpperCase()} ${path}`] = strip(schema);
    collect(schema);
  }
}
const schemas = Object.fromEntries(
  [...needed].sort().map((name) => [name, strip(doc.components.schemas[name])]),
);
const out = resolve(import.meta.dirname, "../test/rest/unleash-request-bodies.json");
writeFileSync(
  out,
  `${JSON.stringify({ source: `Unleash ${doc.info.version} OpenAPI document (Apache-2.0): JSON request bodies`, operations, schemas }, null, 1)}\n`,
);
console.log(`${Object.keys(operations).length} operations, ${needed.size} schemas -> ${out}`);
