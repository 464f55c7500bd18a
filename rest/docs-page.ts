import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { assetResponse, CONTENT_TYPES, type StaticAsset } from "../src/http/static-asset.ts";

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

/** The page or one of its assets for `request`'s path, or null when it is none of them. */
export async function docsResponse(request: Request, pathname: string): Promise<Response | null> {
  if (pathname === "/docs" || pathname === "/docs/") {
    return new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
  }
  const name = pathname.startsWith("/docs/assets/") ? pathname.slice("/docs/assets/".length) : null;
  if (!name || !ASSETS.has(name)) return null;
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
