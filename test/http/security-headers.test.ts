import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inlineScriptHashes } from "../../src/http/security-headers.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Issue 36, point 7: the HTML pages (web UI, GraphiQL, /docs) carry a Content-Security-Policy
 * that allows only this server's scripts and the page's own inline scripts (by hash), and may
 * not be framed; every answer says nosniff and sends no referrer. The pages still work under it:
 * test/ui/offline-tools.test.ts and the UI's browser tests load them in Chromium.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const page = (path: string) =>
  t.app.fetch(`http://vexil.test${path}`, {
    headers: { accept: "text/html", "accept-encoding": "identity" },
  });

describe("security headers", () => {
  it.each(["/", "/flags", "/graphql", "/docs"])(
    "%s: a CSP naming its inline scripts, no framing, nosniff",
    async (path) => {
      const res = await page(path);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*;/);
      expect(csp.split("; ").find((d) => d.startsWith("script-src"))).not.toContain("unsafe");
      const html = await res.text();
      for (const hash of inlineScriptHashes(html)) expect(csp).toContain(`'sha256-${hash}'`);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    },
  );

  it("GraphiQL and /docs carry inline start-up scripts, each allowed by its hash", async () => {
    for (const path of ["/graphql", "/docs"]) {
      const html = await (await page(path)).text();
      expect(inlineScriptHashes(html).length).toBeGreaterThan(0);
    }
  });

  it("API answers and assets say nosniff too", async () => {
    const api = await t.app.fetch("http://vexil.test/api/admin/projects", {
      headers: { authorization: ADMIN_TOKEN },
    });
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
    expect(api.headers.get("content-security-policy")).toBeNull();
    const asset = await t.app.fetch("http://vexil.test/docs/assets/swagger-ui.css");
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
