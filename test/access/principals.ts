import type { TestApp } from "../helpers/app.ts";

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

/** Creates a user with the admin token, logs in as them and makes them a PAT. */
export async function userWithPat(t: TestApp, username: string, rootRole: string) {
  const created = await t.rest("POST", "/api/admin/user-admin", {
    username,
    email: `${username}@example.com`,
    name: username,
    rootRole,
    password: PASSWORD,
  });
  if (created.status !== 201) throw new Error(`create ${username}: ${JSON.stringify(created.body)}`);
  const { session } = await login(t, username);
  const pat = await withSession(t, session, "POST", "/api/admin/user/tokens", {
    description: "tests",
    expiresAt: "2099-01-01T00:00:00.000Z",
  });
  if (pat.status !== 201) throw new Error(`pat ${username}: ${JSON.stringify(pat.body)}`);
  return { id: created.body.id as number, token: pat.body.secret as string, session };
}

export type Principals = Awaited<ReturnType<typeof seedPrincipals>>;

/** The matrix's callers: Viewer, Editor, a Viewer who is Member of `default`, and an Admin user. */
export async function seedPrincipals(t: TestApp) {
  const viewer = await userWithPat(t, "vera-viewer", "Viewer");
  const editor = await userWithPat(t, "eddie-editor", "Editor");
  const member = await userWithPat(t, "mia-member", "Viewer");
  const admin = await userWithPat(t, "ada-admin", "Admin");
  const added = await t.gql(
    `mutation($u: Int!) { addProjectMember(project: "default", userId: $u, roleId: 5) }`,
    {
      u: member.id,
    },
  );
  if (added.errors) throw new Error(JSON.stringify(added.errors));
  return { viewer, editor, member, admin };
}
