/**
 * The same starting state on both servers, made through their REST APIs with the admin token:
 * an Editor and a Viewer (logged in: their session cookies are their credentials), flags with
 * a strategy, a segment, a context field, a tag, a custom strategy, an addon, an invite link, SDK
 * tokens. Ids differ between the servers, so each gets its own fixture of them.
 */
import { ADMIN_SECRET } from "./servers.ts";

export type Credential = Record<string, string>;
export type Answer = { status: number; body: unknown; text: string };

export async function call(
  base: string,
  method: string,
  path: string,
  body: unknown,
  credential: Credential,
): Promise<Answer> {
  const headers: Record<string, string> = { ...credential };
  if (body !== undefined) headers["content-type"] = "application/json";
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  } catch (error) {
    return { status: 0, body: undefined, text: String(error) };
  }
}

export const PASSWORD = "Peer-Diff-Pa55word!";
export const ADMIN: Credential = { authorization: ADMIN_SECRET };

export type Fixture = {
  credentials: Record<"admin" | "editor" | "viewer" | "none" | "client" | "frontend", Credential>;
  /** Values for path parameters that are ids on this server. */
  ids: { addon: string; segment: string; strategy: string; victim: string; invite: string };
};

async function must(base: string, method: string, path: string, body: unknown, what: string) {
  const answer = await call(base, method, path, body, ADMIN);
  if (answer.status >= 300)
    throw new Error(`${base}: ${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body as Record<string, unknown>;
}

async function userWithSession(base: string, username: string, rootRole: number): Promise<Credential> {
  await must(
    base,
    "POST",
    "/api/admin/user-admin",
    { username, email: `${username}@example.com`, rootRole, password: PASSWORD },
    `user ${username}`,
  );
  const res = await fetch(`${base}/auth/simple/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`${base}: login ${username}: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
  // Vexil asks cookie-authenticated writes for its CSRF token (D-13), as its UI sends it; Unleash ignores it.
  const csrf = cookies.find((c) => c.startsWith("vexil-csrf="))?.slice("vexil-csrf=".length);
  return { cookie: cookies.join("; "), ...(csrf ? { "x-csrf-token": decodeURIComponent(csrf) } : {}) };
}

async function sdkToken(base: string, type: "client" | "frontend"): Promise<Credential> {
  const body = { tokenName: `peer-${type}`, type, environment: "development", projects: ["*"] };
  const created = await must(base, "POST", "/api/admin/api-tokens", body, `${type} token`);
  return { authorization: String(created.secret) };
}

export async function seed(base: string): Promise<Fixture> {
  const editor = await userWithSession(base, "peer-editor", 2);
  const viewer = await userWithSession(base, "peer-viewer", 3);
  const victim = await must(
    base,
    "POST",
    "/api/admin/user-admin",
    { username: "peer-victim", email: "peer-victim@example.com", rootRole: 3 },
    "user peer-victim",
  );
  const P = "/api/admin/projects/default";
  for (const name of ["peer-flag", "peer-parent"]) {
    await must(base, "POST", `${P}/features`, { name, description: "peer-diff" }, `flag ${name}`);
  }
  // 100 %: the sampled SDK contexts have no userId or sessionId, so both servers (as Unleash's
  // SDKs do) roll a random stickiness value; at 50 % each would list the flag or not at random.
  const strategy = await must(
    base,
    "POST",
    `${P}/features/peer-flag/environments/development/strategies`,
    { name: "flexibleRollout", parameters: { rollout: "100", stickiness: "default", groupId: "peer-flag" } },
    "strategy",
  );
  await must(
    base,
    "POST",
    "/api/admin/features/peer-flag/tags",
    { type: "simple", value: "peer-tag" },
    "tag",
  );
  const segment = await must(
    base,
    "POST",
    "/api/admin/segments",
    { name: "peer-segment", constraints: [] },
    "segment",
  );
  await must(
    base,
    "POST",
    "/api/admin/context",
    { name: "peer-context", legalValues: [{ value: "a" }] },
    "context",
  );
  await must(
    base,
    "POST",
    "/api/admin/strategies",
    { name: "peer-strategy", parameters: [] },
    "strategy type",
  );
  const addon = await must(
    base,
    "POST",
    "/api/admin/addons",
    {
      provider: "webhook",
      enabled: false,
      parameters: { url: "http://127.0.0.1:9/peer" },
      events: ["feature-created"],
    },
    "addon",
  );
  const invite = await must(
    base,
    "POST",
    "/api/admin/invite-link/tokens",
    { name: "peer-invite", expiresAt: "2099-01-01T00:00:00.000Z" },
    "invite link",
  );
  return {
    credentials: {
      admin: ADMIN,
      editor,
      viewer,
      none: {},
      client: await sdkToken(base, "client"),
      frontend: await sdkToken(base, "frontend"),
    },
    ids: {
      addon: String(addon.id),
      segment: String(segment.id),
      strategy: String(strategy.id),
      victim: String(victim.id),
      invite: String(invite.secret),
    },
  };
}
