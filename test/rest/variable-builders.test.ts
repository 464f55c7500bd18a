import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoutes } from "../../rest/route.ts";
import { type App, createApp } from "../../src/app.ts";
import { ValidationError } from "../../src/shared/errors.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";

// A route's variable builder refuses bad input with the typed error (a 400 in the REST shape);
// anything else it throws is a bug in the route: a logged 500 that does not echo the exception.
const routes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/test/refuses/:id",
    tag: "Test",
    summary: "A builder that refuses its input",
    document: "query { uiConfig { name } }",
    variables: (req) => {
      throw new ValidationError(`"id" must be an integer, not "${req.params.id}".`, [
        { message: "must be an integer", path: "id" },
      ]);
    },
    schemas: { response: z.unknown() },
  },
  {
    method: "GET",
    path: "/api/admin/test/breaks",
    tag: "Test",
    summary: "A builder with a bug",
    document: "query { uiConfig { name } }",
    variables: (req) => ({ name: (req.body as { name: string }).name.trim() }),
    schemas: { response: z.unknown() },
  },
]);

let t: TestApp;
let app: App;
const logged: string[] = [];
beforeAll(async () => {
  t = await createTestApp({}, { log: (line) => logged.push(line) });
  app = createApp({ ...t.deps, restRoutes: routes });
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await app.fetch(`http://localhost${path}`, { headers: { authorization: ADMIN_TOKEN } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("REST variable builders", () => {
  it("a typed refusal is a 400 with the builder's message and details", async () => {
    const res = await get("/api/admin/test/refuses/abc");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      name: "ValidationError",
      message: '"id" must be an integer, not "abc".',
      details: [{ message: "must be an integer", path: "id" }],
    });
  });

  it("any other exception is a logged 500 that does not show it", async () => {
    const res = await get("/api/admin/test/breaks");
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/Cannot read|TypeError|undefined/);
    expect(res.body).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    expect(logged.some((line) => line.includes("Cannot read properties of undefined"))).toBe(true);
  });
});
