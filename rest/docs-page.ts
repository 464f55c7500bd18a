import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { type HandlerRoute, noSuchPath, PUBLIC, type Surface } from "../src/http/route-table.ts";
import { assetResponse, CONTENT_TYPES, type StaticAsset } from "../src/http/static-asset.ts";
import { jsonContent } from "../src/shared/openapi.ts";

/**
 * `/docs`: the OpenAPI document rendered by Swagger UI (`swagger-ui-dist`), whose script and
 * styles are served from node_modules under `/docs/assets/`: no CDN, so the reference works
 * offline. Operations are grouped by tag; the filter box searches tags, paths, methods,
 * summaries and descriptions; each operation shows request and response examples generated
 * from its schemas. Swagger's online validator badge is off (it would call swagger.io).
 */
const ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js"]);

const assetDirectory = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const assets = new Map<string, Promise<StaticAsset>>();

const DOCS: Surface = { name: "docs", prefixes: ["/docs"], decodesPath: false, answersHead: true };

/** `/docs`, its two files, and `/docs/openapi.json` (the document `openApi` answers). */
export function docsRoutes(openApi: () => unknown): HandlerRoute[] {
  const docs = { method: "GET", surface: DOCS, access: PUBLIC } as const;
  const tags = ["API reference"];
  return [
    {
      ...docs,
      path: "/docs",
      doc: {
        operationId: "getDocsPage",
        summary: "This reference, for people (Swagger UI)",
        tags,
        responses: {
          "200": { description: "The page.", content: { "text/html": { schema: { type: "string" } } } },
        },
      },
      handle: async () =>
        new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
    },
    {
      ...docs,
      path: "/docs/openapi.json",
      doc: {
        operationId: "getOpenApiDocument",
        summary: "This reference as an OpenAPI 3.1 document",
        description: "Every route of the HTTP route table (all paths but /graphql).",
        tags,
        responses: { "200": { description: "The document.", content: jsonContent({ type: "object" }) } },
      },
      handle: async () => Response.json(openApi()),
    },
    {
      ...docs,
      path: "/docs/assets/:name",
      doc: {
        operationId: "getDocsFile",
        summary: "A file of the reference page (Swagger UI's script and styles)",
        tags,
        responses: { "200": { description: "The file." }, "404": { description: "No such file." } },
      },
      handle: async ({ request, url, params }) => {
        const name = params.name ?? "";
        if (!ASSETS.has(name)) noSuchPath(request, url);
        let asset = assets.get(name);
        if (!asset) {
          asset = readFile(join(assetDirectory, name)).then((raw) => ({
            type: CONTENT_TYPES[extname(name)] as string,
            raw,
          }));
          assets.set(name, asset);
        }
        // Not versioned in the path: a new swagger-ui-dist is picked up within the hour.
        return assetResponse(await asset, request, "public, max-age=3600");
      },
    },
  ];
}

/** Swagger UI's filter, widened from tag names to every text of an operation (all words must match). */
const SEARCH_PLUGIN = `function searchOperations() {
  const text = (name, op) => [name, op.get("method"), op.get("path"), op.getIn(["operation", "summary"]),
    op.getIn(["operation", "description"]), op.getIn(["operation", "operationId"])].join(" ").toLowerCase();
  return { fn: { opsFilter: (taggedOps, phrase) => {
    const words = String(phrase).toLowerCase().split(/\\s+/).filter(Boolean);
    return taggedOps
      .map((tag, name) => tag.set("operations", tag.get("operations").filter((op) => words.every((w) => text(name, op).includes(w)))))
      .filter((tag) => tag.get("operations").size > 0);
  } } };
}`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Vexil admin API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
${SEARCH_PLUGIN}
window.ui = SwaggerUIBundle({
  url: "/docs/openapi.json",
  dom_id: "#docs",
  deepLinking: true,
  filter: true,
  docExpansion: "none",
  defaultModelsExpandDepth: -1,
  validatorUrl: null,
  plugins: [searchOperations],
});
</script>
</body>
</html>
`;
