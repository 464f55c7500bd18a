import type { TestApp } from "./app.ts";

/** The password `createUser` gives users unless told otherwise. */
export const PASSWORD = "Str0ng-Passw0rd!";

export type Session = { cookie: string; csrf: string; setCookies: string[] };

/** Logs in over HTTP and returns the cookies a browser would keep. */
export async function login(t: TestApp, username: string, password = PASSWORD) {
  const res = await t.app.fetch("http://vexil.test/auth/simple/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  const setCookies = res.headers.getSetCookie();
  const pairs = setCookies.map((c) => c.split(";")[0] as string);
  const csrf = pairs.find((p) => p.startsWith("vexil-csrf="))?.slice("vexil-csrf=".length) ?? "";
  const session: Session = { cookie: pairs.join("; "), csrf, setCookies };
  return { status: res.status, body: await res.json(), session };
}

/**
 * A request as a browser with a session sends it (CSRF header unless `csrf: false`; a JSON
 * body unless another `contentType`; an `Origin` header when given).
 */
export async function withSession(
  t: TestApp,
  session: Session,
  method: string,
  path: string,
  body?: unknown,
  options: { csrf?: boolean; origin?: string; contentType?: string } = {},
) {
  const res = await t.app.fetch(`http://vexil.test${path}`, {
    method,
    headers: {
      "content-type": options.contentType ?? "application/json",
      cookie: session.cookie,
      ...(options.csrf === false ? {} : { "x-csrf-token": session.csrf }),
      ...(options.origin ? { origin: options.origin } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
