import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import type { Plugin } from "graphql-yoga";
import { projectRoot } from "../shared/project-root.ts";
import { assetResponse, CONTENT_TYPES, IMMUTABLE, type StaticAsset } from "./static-asset.ts";

/**
 * The web UI (ui/, built into ui/dist by `npm install`) at `/`: its hashed assets under
 * `/assets/` (cached for a year, compressed once in memory), and index.html for every other
 * page a browser asks for (`Accept: text/html`), so that a reload or a shared link to
 * `/flags/...` opens the page. Paths of the API (`/api`, `/graphql`, `/auth`, ...) are answered
 * before this plugin runs; what remains and is not a page is left to the 404.
 */
const API_PREFIXES = [
  "/api/",
  "/graphql",
  "/graphiql/",
  "/auth/",
  "/docs",
  "/ofrep/",
  "/avatars/",
  "/health",
  "/ready",
  "/metrics",
];

export function uiPlugin(directory = join(projectRoot(), "ui/dist")): Plugin {
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

  return {
    async onRequest({ request, url, endResponse }) {
      if (request.method !== "GET" && request.method !== "HEAD") return;
      const path = url.pathname;
      if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) return;
      if (path.startsWith("/assets/")) {
        const relative = normalize(path.slice(1));
        const found = relative.startsWith("assets/") ? await asset(relative) : null;
        if (found) endResponse(assetResponse(found, request, IMMUTABLE));
        return;
      }
      if (!(request.headers.get("accept") ?? "").includes("text/html")) return;
      const index = await asset("index.html");
      endResponse(index ? assetResponse(index, request, "no-cache") : notBuilt());
    },
  };
}

function notBuilt(): Response {
  return new Response(
    "<!doctype html><title>Vexil</title><p>The web UI is not built: run <code>npm run build</code>.</p>",
    { status: 503, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}
