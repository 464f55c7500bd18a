import { match } from "path-to-regexp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessOf, isOperationRoute, surfaceOf, type TableRoute } from "../../rest/table-route.ts";
import type { HttpMethod } from "../../src/http/route-table.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken } from "../helpers/builders.ts";

/**
 * Walks the app's route table (rest/table.ts): every route, whatever its surface, refuses a
 * missing credential where it needs one, answers 405 for a method its path does not take and 404
 * below itself, refuses a body past its limit, and is in the OpenAPI document, which lists
 * nothing else. A route added to the table is walked without a line here.
 */

let t: TestApp;
let routes: readonly TableRoute[];
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.routes.routes;
  tokens["client-token"] = await apiToken(t, "client", "development", ["*"]);
  tokens["frontend-token"] = await apiToken(t, "frontend", "development", ["*"]);
  tokens["admin-token"] = ADMIN_TOKEN;
});
afterAll(() => t.close());

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const nameOf = (route: TableRoute) => `${route.method} ${route.path}`;
/** A path of the route with each parameter filled. */
const concrete = (route: TableRoute) => route.path.replace(/[:*](\w+)/g, "walk-$1");
/** The methods of the routes whose pattern matches `path`, by path-to-regexp (not the table's trie). */
const methodsAt = (path: string) =>
  new Set(routes.filter((r) => match(r.path.replace(/\*(\w+)/, "*$1"))(path)).map((r) => r.method));

function send(method: string, path: string, init: { token?: string; body?: string } = {}) {
  return t.app.fetch(`http://vexil.test${path}`, {
    method,
    headers: {
      ...(init.token ? { authorization: init.token } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.body,
  });
}

/** The error body's name in the surface's shape (OFREP's bodies have none). */
async function errorNameOf(response: Response): Promise<string | undefined> {
  const body = (await response.json()) as { name?: string; errorDetails?: string };
  expect(body.name ?? body.errorDetails, "an error body").toEqual(expect.any(String));
  return body.name;
}

describe("every route of the table", () => {
  it("needs a credential where its access says so (401 in its surface's shape)", async () => {
    const guarded = routes.filter((r) => accessOf(r).kind !== "public");
    expect(guarded.length).toBeGreaterThan(150);
    for (const route of guarded) {
      const response = await send(route.method, concrete(route));
      expect(response.status, nameOf(route)).toBe(401);
      const name = await errorNameOf(response);
      if (surfaceOf(route).name !== "ofrep") expect(name, nameOf(route)).toBe("AuthenticationRequired");
    }
  });

  it("answers a method its path does not take with 405 (and Allow, outside OFREP)", async () => {
    let walked = 0;
    for (const route of routes) {
      const path = concrete(route);
      const allowed = methodsAt(path);
      const wrong = METHODS.find((m) => !allowed.has(m));
      if (!wrong) continue;
      const response = await send(wrong, path);
      expect(response.status, `${wrong} ${path}`).toBe(405);
      await errorNameOf(response);
      if (surfaceOf(route).name !== "ofrep") {
        expect(new Set(response.headers.get("allow")?.split(", ")), path).toEqual(allowed);
      }
      walked++;
    }
    expect(walked).toBeGreaterThan(150);
  });

  it("answers a path below it that no route takes with 404", async () => {
    for (const route of routes) {
      const path = `${concrete(route)}/walk-unknown`;
      if (methodsAt(path).size > 0) continue;
      const response = await send("GET", path);
      expect(response.status, path).toBe(404);
      if (surfaceOf(route).prefixes.length > 0) await errorNameOf(response);
    }
  });

  it("refuses a body past its limit as its document says (413; an SDK report 400)", async () => {
    const doc = await openApi();
    const limit = t.config.http.maxBodyBytes;
    const oversized = JSON.stringify({ pad: "x".repeat(limit) });
    const withBody = routes.filter((r) =>
      isOperationRoute(r) ? r.method !== "GET" && r.method !== "DELETE" : r.doc.requestBody !== undefined,
    );
    expect(withBody.length).toBeGreaterThan(80);
    for (const route of withBody) {
      const access = accessOf(route);
      const token =
        access.kind === "admin"
          ? ADMIN_TOKEN
          : access.kind === "sdk"
            ? tokens[access.tokens[0] as string]
            : undefined;
      const response = await send(route.method, concrete(route), { token, body: oversized });
      // An SDK report past the limit is refused as a malformed report: 400 (sdkReportBody, D-35).
      const responses = doc.paths[docPath(route)]?.[route.method.toLowerCase()]?.responses ?? {};
      expect(response.status, nameOf(route)).toBe("413" in responses ? 413 : 400);
      expect(responses, nameOf(route)).toHaveProperty(String(response.status));
    }
  });

  it("answers HEAD as GET without a body where its surface serves files and probes, else 405", async () => {
    for (const route of routes.filter((r) => r.method === "GET" && accessOf(r).kind === "public")) {
      const path = concrete(route);
      const [get, head] = [await send("GET", path), await send("HEAD", path)];
      expect(head.status, path).toBe(surfaceOf(route).answersHead ? get.status : 405);
      if (surfaceOf(route).answersHead && head.ok) expect(await head.text(), path).toBe("");
    }
    expect((await send("HEAD", "/health")).status).toBe(200);
    expect((await send("HEAD", "/api/admin/projects", { token: ADMIN_TOKEN })).status).toBe(405);
  });

  it("is in /docs/openapi.json, which lists exactly the table's routes", async () => {
    const doc = await openApi();
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const table = routes.map((r) => `${r.method} ${docPath(r)}`);
    expect(documented.sort()).toEqual([...new Set(table)].sort());
    expect(table.length).toBe(new Set(table).size);
  });
});

type OpenApi = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const openApi = async () =>
  (await (await t.app.fetch("http://vexil.test/docs/openapi.json")).json()) as OpenApi;
const docPath = (route: TableRoute) => route.path.replace(/[:*](\w+)/g, "{$1}");
