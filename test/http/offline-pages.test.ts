import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/*
 * Issue 15 points 3 and 4: GraphiQL and the REST reference are served from npm packages, so a
 * browser without internet access gets working pages: nothing they load comes from another
 * host. The pages in a real browser: test/ui/offline-tools.test.ts.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function get(path: string, accept = "*/*", acceptEncoding?: string) {
  const headers: Record<string, string> = { accept };
  if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
  const res = await t.app.fetch(`http://vexil.test${path}`, { headers });
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    headers: res.headers,
    text: acceptEncoding ? "" : await res.text(),
  };
}

/** Every resource the HTML makes a browser load (scripts, styles, images, frames, imports). */
function loadedUrls(html: string): string[] {
  const attributes = [
    ...html.matchAll(/<(?:script|link|img|iframe|source)\b[^>]*?\s(?:src|href)=["']([^"']+)["']/gi),
  ];
  const cssImports = [...html.matchAll(/@import\s+(?:url\()?["']?([^"')\s;]+)/gi)];
  const cssUrls = [...html.matchAll(/url\(\s*["']?(https?:[^"')\s]+)/gi)];
  return [...attributes, ...cssImports, ...cssUrls].map((m) => m[1] as string);
}

const external = (urls: string[]) => urls.filter((u) => /^(https?:)?\/\//i.test(u));

describe("GraphiQL at /graphql", () => {
  it("is served whole from the page: no script, style or font from a CDN, no unfilled title", async () => {
    const page = await get("/graphql", "text/html");
    expect(page.status).toBe(200);
    expect(page.type).toContain("text/html");
    expect(page.text).toContain("<title>Vexil GraphiQL</title>");
    expect(page.text).not.toContain("__TITLE__");
    expect(page.text).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|esm\.sh|fonts\.googleapis/);
    expect(external(loadedUrls(page.text))).toEqual([]);
    expect(page.text).toContain("renderYogaGraphiQL");
  });

  it("loads GraphiQL's script, styles and Monaco workers from this server, cached and compressed", async () => {
    const page = await get("/graphql", "text/html");
    const urls = [
      ...loadedUrls(page.text),
      ...[...page.text.matchAll(/"(\/graphiql\/[^"]+\.worker\.js)"/g)].map((m) => m[1] as string),
    ];
    expect(urls.map((u) => u.replace(/^\/graphiql\/[0-9a-f]{12}\//, ""))).toEqual([
      "graphiql.css",
      "graphiql.js",
      "editor.worker.js",
      "json.worker.js",
      "graphql.worker.js",
    ]);
    for (const url of urls) {
      const asset = await get(url);
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get("cache-control"), url).toContain("immutable");
      expect(asset.text.length, url).toBeGreaterThan(1_000);
      expect(asset.text, url).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|esm\.sh|fonts\.googleapis/);
    }
    const script = urls.find((u) => u.endsWith("/graphiql.js")) as string;
    expect((await get(script, "*/*", "gzip, br")).headers.get("content-encoding")).toBe("br");
    expect((await get(script.replace(/[0-9a-f]{12}/, "000000000000"))).status).toBe(404);
  });

  it("asks for the token in the headers editor and runs queries against /graphql", async () => {
    const page = await get("/graphql", "text/html");
    expect(page.text).toContain("Authorization");
    const res = await t.gql<{ viewer: { name: string } }>("{ viewer { name } }");
    expect(res.data?.viewer.name).toBeTruthy();
  });
});

describe("REST reference at /docs", () => {
  it("loads Swagger UI from /docs/assets (node_modules), nothing from another host", async () => {
    const page = await get("/docs");
    expect(page.status).toBe(200);
    const urls = loadedUrls(page.text);
    expect(external(urls)).toEqual([]);
    expect(urls).toEqual(["/docs/assets/swagger-ui.css", "/docs/assets/swagger-ui-bundle.js"]);
    for (const url of urls) {
      const asset = await get(url);
      expect(asset.status, url).toBe(200);
      expect(asset.text.length).toBeGreaterThan(10_000);
      expect(external(loadedUrls(asset.text)), url).toEqual([]);
    }
    expect((await get("/docs/assets/package.json")).status).toBe(404);
    // Swagger UI's validator badge would load an image from swagger.io
    expect(page.text).toContain("validatorUrl: null");
  });

  it("groups operations by tag, searches them and shows examples", async () => {
    const page = await get("/docs");
    expect(page.text).toContain("filter: true");
    expect(page.text).toContain("opsFilter");
    const doc = JSON.parse((await get("/docs/openapi.json")).text);
    const operations = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops as Record<string, { tags?: string[] }>),
    );
    expect(operations.every((op) => op.tags?.length === 1)).toBe(true);
    expect(new Set(operations.map((op) => op.tags?.[0])).size).toBeGreaterThan(10);
  });

  it("documents the /auth routes", async () => {
    const doc = JSON.parse((await get("/docs/openapi.json")).text);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/auth/"))).toEqual([
      "/auth/simple/login",
      "/auth/logout",
      "/auth/reset/validate",
      "/auth/reset/password",
      "/auth/reset/password-email",
      "/auth/reset/validate-password",
    ]);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/invite/"))).toEqual([
      "/invite/{token}/validate",
      "/invite/{token}/signup",
    ]);
    expect(doc.paths["/invite/{token}/signup"].post.security).toEqual([]);
    const login = doc.paths["/auth/simple/login"].post;
    expect(login.tags).toEqual(["Auth"]);
    expect(login.requestBody.content["application/json"].schema.example).toMatchObject({ username: "dora" });
    expect(login.responses["200"].content["application/json"].schema.example).toMatchObject({
      rootRole: "Editor",
    });
  });
});
