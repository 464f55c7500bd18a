import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "../../rest/routes/index.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Issue 36, point 7: a body key `__proto__`, `constructor` or `prototype` is an unknown field like
 * any other: refused with a 400 naming it where the route's body refuses unknown fields (as
 * Unleash's schemas do), ignored elsewhere; never a 500, and never reaching Object.prototype.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const PROTOTYPE_KEYS = `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "prototype": 1}`;

async function send(method: string, path: string, text: string) {
  const res = await t.app.fetch(`http://vexil.test${path}`, {
    method,
    headers: { authorization: ADMIN_TOKEN, "content-type": "application/json" },
    body: text,
  });
  const body = await res.text();
  return { status: res.status, body: body ? JSON.parse(body) : undefined };
}

describe("prototype keys in REST bodies", () => {
  it("no route with a JSON body answers them with a 5xx", async () => {
    const routes = allRoutes.filter((route) => route.schemas?.body && route.method !== "GET");
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => `proto-${name.toLowerCase()}`);
      const answer = await send(route.method, path, PROTOTYPE_KEYS);
      if (answer.status >= 500) failures.push(`${route.method} ${route.path}: ${answer.status}`);
      else if (answer.status >= 400) expect(answer.body).toMatchObject({ name: expect.any(String) });
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a strict body names the key in a 400; a tolerant one ignores it", async () => {
    // Unleash's tag body refuses other fields.
    const strict = await send("POST", "/api/admin/tag-types", `{"name": "proto-tags", "constructor": 1}`);
    expect(strict.status).toBe(400);
    expect(strict.body.message).toMatch(/"constructor" is not a field/);
    const tolerant = await send(
      "POST",
      "/api/admin/projects/default/features",
      `{"name": "proto-flag", "__proto__": {"type": "kill-switch"}, "constructor": 1}`,
    );
    expect(tolerant.status).toBe(201);
    expect(tolerant.body).toMatchObject({ name: "proto-flag", type: "release" });
  });
});
