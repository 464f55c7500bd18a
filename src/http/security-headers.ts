import { createHash } from "node:crypto";
import type { Plugin } from "graphql-yoga";

/**
 * Headers every answer carries, and the Content-Security-Policy of the HTML pages (the web UI,
 * GraphiQL at `/graphql`, Swagger UI at `/docs`). All three load their scripts, styles and
 * workers from this server (nothing from a CDN) and call only it (fetch, WebSocket), so the
 * policy allows `'self'` and, for the inline scripts a page carries (GraphiQL's and Swagger
 * UI's start-up code), exactly those scripts by their SHA-256 hash, read from the page itself:
 * an injected script runs nowhere. Styles may be inline (Monaco, Swagger UI and React set
 * them at run time). No page may be framed (clickjacking): `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`.
 */
const ALWAYS = Object.entries({
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
});

function pagePolicy(inlineScriptHashes: string[]): string {
  const scripts = ["'self'", ...inlineScriptHashes.map((hash) => `'sha256-${hash}'`)].join(" ");
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The SHA-256 (base64) of each inline `<script>` of a page, as CSP hash sources name them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\ssrc\s*=/i.test(attributes) || body.length === 0) continue;
    hashes.push(createHash("sha256").update(body, "utf8").digest("base64"));
  }
  return hashes;
}

export function useSecurityHeaders(): Plugin {
  return {
    async onResponse({ response }) {
      for (const [name, value] of ALWAYS) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
      if (!(response.headers.get("content-type") ?? "").startsWith("text/html")) return;
      // A compressed page is one of the UI's, which has no inline script.
      const html = response.headers.has("content-encoding") ? "" : await response.clone().text();
      response.headers.set("content-security-policy", pagePolicy(inlineScriptHashes(html)));
      response.headers.set("x-frame-options", "DENY");
    },
  };
}
