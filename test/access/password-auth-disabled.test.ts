import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ AUTH_TYPE: "none" });
});
afterAll(() => t.close());

describe("AUTH_TYPE none", () => {
  it("reports and enforces disabled password login; API tokens keep working", async () => {
    const config = await t.rest("GET", "/api/admin/ui-config");
    expect(config.body).toMatchObject({ authenticationType: "none", disablePasswordAuth: true });
    const login = await t.app.fetch("http://vexil.test/auth/simple/login", {
      method: "POST",
      body: JSON.stringify({ username: "admin", password: "Admin-Password-1" }),
    });
    expect(login.status).toBe(403);
    expect(login.headers.getSetCookie()).toEqual([]);
  });
});
