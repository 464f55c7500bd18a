import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { projectRoot } from "../shared/project-root.ts";
import { type HandlerRoute, noSuchPath, PUBLIC } from "./route-table.ts";
import { assetResponse, CONTENT_TYPES, IMMUTABLE, type StaticAsset } from "./static-asset.ts";

/**
 * Paths of the API that are not routes of the table, and so never a page: `/graphql` (GraphiQL
 * for a browser), `/metrics`, and anything below `/api/`.
 */
const NOT_PAGES = ["/api/", "/graphql", "/metrics"];

/**
 * The web UI (ui/, built into ui/dist by `npm install`) at `/`: its hashed assets under
 * `/assets/` (a route of the table, cached for a year, compressed once in memory), and
 * index.html for every other page a browser asks for (`Accept: text/html`) on a path that is no
 * route, so that a reload or a shared link to `/flags/...` opens the page (`page`, which the
 * table's plugin calls for a path it does not own). What remains and is not a page is left to
 * the 404.
 */
export function webUi(directory = join(projectRoot(), "ui/dist")) {
  const cache = new Map<string, Promise<StaticAsset | null>>();

  function asset(relative: string): Promise<StaticAsset | null> {
    let found = cache.get(relative);
    if (!found) {
      found = readFile(join(directory, relative)).then(
        (raw) => ({ type: CONTENT_TYPES[extname(relative)] ?? "application/octet-stream", raw }),
        () => null,
      );
      cache.set(relative, found);
    }
    return found;
  }

  const routes: HandlerRoute[] = [
    {
      method: "GET",
      path: "/assets/*file",
      surface: { name: "ui", prefixes: ["/assets"], decodesPath: false, answersHead: true },
      access: PUBLIC,
      doc: {
        operationId: "getUiFile",
        summary: "A file of the web UI",
        description:
          "Script, styles and images of the UI at `/`, named by a hash of their content (cached for a year).",
        tags: ["Web files"],
        responses: { "200": { description: "The file." }, "404": { description: "No such file." } },
      },
      handle: async ({ request, url }) => {
        const relative = normalize(url.pathname.slice(1));
        const found = relative.startsWith("assets/") ? await asset(relative) : null;
        if (!found) noSuchPath(request, url);
        return assetResponse(found, request, IMMUTABLE);
      },
    },
  ];

  /** index.html for a browser's page request on a path no route takes; null for anything else. */
  async function page(request: Request, url: URL): Promise<Response | null> {
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    if (NOT_PAGES.some((prefix) => url.pathname.startsWith(prefix))) return null;
    if (!(request.headers.get("accept") ?? "").includes("text/html")) return null;
    const index = await asset("index.html");
    return index ? assetResponse(index, request, "no-cache") : notBuilt();
  }

  return { routes, page };
}

function notBuilt(): Response {
  return new Response(
    "<!doctype html><title>Vexil</title><p>The web UI is not built: run <code>npm run build</code>.</p>",
    { status: 503, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}
