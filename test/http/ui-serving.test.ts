import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/shared/project-root.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/** The built UI (ui/dist) at `/`: pages fall back to index.html, assets are cached and compressed. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.fetch(`http://vexil.test${path}`, { headers });

describe("web UI serving", () => {
  it("answers every page a browser asks for with index.html, never cached", async () => {
    for (const path of ["/", "/flags", "/projects/default/flags/some-flag", "/events?type=feature-created"]) {
      const response = await get(path, { accept: "text/html,application/xhtml+xml" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toMatch(/<div id="root">/);
    }
  });

  it("serves hashed assets compressed and cached for a year", async () => {
    const script = readdirSync(join(projectRoot(), "ui/dist/assets")).find((name) =>
      /^index-.*\.js$/.test(name),
    );
    const response = await get(`/assets/${script}`, { "accept-encoding": "gzip, br" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("cache-control")).toMatch(/immutable/);
    expect((await response.text()).length).toBeGreaterThan(1000);
  });

  it("leaves the API, unknown assets and non-page requests to their own answers", async () => {
    expect((await get("/assets/../package.json")).status).toBe(404);
    expect((await get("/assets/missing.js")).status).toBe(404);
    const api = await get("/api/admin/nothing-here", { accept: "text/html", authorization: "x" });
    expect(api.headers.get("content-type")).toMatch(/json/);
    const graphiql = await get("/graphql", { accept: "text/html" });
    expect(await graphiql.text()).toMatch(/GraphiQL/);
    expect((await get("/flags", { accept: "application/json" })).status).toBe(404);
  });
});
