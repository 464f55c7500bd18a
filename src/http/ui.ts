import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "graphql-yoga";
import { preferredEncoding } from "../modules/client-api/features.body.ts";
import { projectRoot } from "../shared/project-root.ts";

/**
 * The web UI (ui/, built into ui/dist by `npm install`) at `/`: its hashed assets under
 * `/assets/` (cached for a year, compressed once in memory), and index.html for every other
 * page a browser asks for (`Accept: text/html`), so that a reload or a shared link to
 * `/flags/...` opens the page. Paths of the API (`/api`, `/graphql`, `/auth`, ...) are answered
 * before this plugin runs; what remains and is not a page is left to the 404.
 */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".map": "application/json",
};
const API_PREFIXES = [
  "/api/",
  "/graphql",
  "/auth/",
  "/docs",
  "/ofrep/",
  "/avatars/",
  "/health",
  "/ready",
  "/metrics",
];

/** Quality 6: 30 ms for the main bundle, where the default 11 blocks for a second. */
const BROTLI_FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } };

type Asset = { type: string; raw: Buffer; gzip?: Buffer; br?: Buffer };

export function uiPlugin(directory = join(projectRoot(), "ui/dist")): Plugin {
  const cache = new Map<string, Promise<Asset | null>>();

  function asset(relative: string): Promise<Asset | null> {
    let found = cache.get(relative);
    if (!found) {
      found = readFile(join(directory, relative)).then(
        (raw) => ({ type: TYPES[extname(relative)] ?? "application/octet-stream", raw }),
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
        if (found) endResponse(respond(found, request, "public, max-age=31536000, immutable"));
        return;
      }
      if (!(request.headers.get("accept") ?? "").includes("text/html")) return;
      const index = await asset("index.html");
      endResponse(index ? respond(index, request, "no-cache") : notBuilt());
    },
  };
}

function respond(asset: Asset, request: Request, cacheControl: string): Response {
  const encoding = asset.raw.length > 1024 ? preferredEncoding(request.headers.get("accept-encoding")) : null;
  const headers: Record<string, string> = {
    "content-type": asset.type,
    "cache-control": cacheControl,
    vary: "accept-encoding",
  };
  let body = asset.raw;
  if (encoding === "br") body = asset.br ??= brotliCompressSync(asset.raw, BROTLI_FAST);
  if (encoding === "gzip") body = asset.gzip ??= gzipSync(asset.raw);
  if (encoding) headers["content-encoding"] = encoding;
  return new Response(request.method === "HEAD" ? null : new Uint8Array(body), { headers });
}

function notBuilt(): Response {
  return new Response(
    "<!doctype html><title>Vexil</title><p>The web UI is not built: run <code>npm run build</code>.</p>",
    { status: 503, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}
