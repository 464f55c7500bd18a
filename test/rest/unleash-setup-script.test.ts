import { Unleash, UnleashEvents } from "unleash-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN_TOKEN, createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";

/*
 * Issue 14, point 4: a setup script written for Unleash 8.2 runs unchanged against Vexil. It
 * speaks HTTP to a listening server with Unleash's paths only (no GraphQL), first with an admin
 * API token, then as a person: password login, session cookie, a personal access token made
 * with that cookie, and the token used as a script would. Every status is checked; at the end
 * Unleash's own Node SDK evaluates what the script set up.
 */
let t: ListeningTestApp;

beforeAll(async () => {
  t = await createListeningTestApp();
});
afterAll(() => t?.close());

type Step = { method: string; path: string; body?: unknown; status: number };

async function call(step: Step, headers: Record<string, string>) {
  const res = await fetch(`${t.url}${step.path}`, {
    method: step.method,
    headers: { ...headers, ...(step.body === undefined ? {} : { "content-type": "application/json" }) },
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Runs the steps in order; a wrong status fails with the step and the server's message. */
async function run(steps: Step[], headers: Record<string, string>) {
  const answers = [];
  for (const step of steps) {
    const res = await call(step, headers);
    expect({
      step: `${step.method} ${step.path}`,
      status: res.status,
      body: res.status === step.status ? "" : res.body,
    }).toEqual({ step: `${step.method} ${step.path}`, status: step.status, body: "" });
    answers.push(res.body);
  }
  return answers;
}

const P = "/api/admin/projects/default";
const rollout = {
  name: "flexibleRollout",
  parameters: { rollout: "100", stickiness: "default", groupId: "checkout" },
  constraints: [{ contextName: "region", operator: "IN", values: ["eu"] }],
};

// One test: the SDK's evaluation needs what the script set up.
it("an admin-token setup script: integrations, catalogue, users, flags with tags, strategies, variants, dependencies, stale, archive, favourites; Unleash's Node SDK evaluates what it set up: the constraint, the rollout and the variants", async () => {
  const [addon] = await run(
    [
      {
        method: "POST",
        path: "/api/admin/addons",
        body: {
          provider: "webhook",
          enabled: true,
          parameters: { url: "http://127.0.0.1:9/unleash-hook" },
          events: ["feature-created", "feature-environment-enabled"],
          projects: [],
          environments: [],
        },
        status: 201,
      },
      {
        method: "POST",
        path: "/api/admin/tag-types",
        body: { name: "team", description: "Owning team" },
        status: 201,
      },
      {
        method: "POST",
        path: "/api/admin/context",
        body: {
          name: "region",
          description: "Data region",
          legalValues: [{ value: "eu" }, { value: "us" }],
          stickiness: false,
        },
        status: 201,
      },
      {
        method: "POST",
        path: "/api/admin/user-admin",
        body: { email: "dev@example.com", name: "Dev", rootRole: 2, sendEmail: false },
        status: 201,
      },
      {
        method: "POST",
        path: `${P}/features`,
        body: { name: "checkout", type: "release", description: "New checkout" },
        status: 201,
      },
      {
        method: "POST",
        path: `${P}/features`,
        body: { name: "checkout-banner", type: "experiment" },
        status: 201,
      },
      {
        method: "POST",
        path: "/api/admin/features/checkout/tags",
        body: { type: "team", value: "payments" },
        status: 201,
      },
      {
        method: "POST",
        path: "/api/admin/features/checkout/tags",
        body: { type: "simple", value: "web" },
        status: 201,
      },
      {
        method: "POST",
        path: `${P}/features/checkout/environments/development/strategies`,
        body: rollout,
        status: 200,
      },
      {
        method: "PUT",
        path: `${P}/features/checkout/environments/development/variants`,
        body: [
          {
            name: "blue",
            weight: 500,
            weightType: "variable",
            stickiness: "default",
            payload: { type: "string", value: "b" },
          },
          { name: "green", weight: 500, weightType: "variable", stickiness: "default" },
        ],
        status: 200,
      },
      { method: "POST", path: `${P}/features/checkout/environments/development/on`, status: 200 },
      {
        method: "POST",
        path: `${P}/features/checkout-banner/dependencies`,
        body: { feature: "checkout", enabled: true },
        status: 200,
      },
      { method: "POST", path: `${P}/features/checkout/favorites`, status: 200 },
      {
        method: "POST",
        path: `${P}/stale`,
        body: { features: ["checkout-banner"], stale: true },
        status: 202,
      },
      { method: "DELETE", path: `${P}/features/checkout-banner`, status: 202 },
    ],
    { authorization: ADMIN_TOKEN },
  );
  expect(addon).toMatchObject({ provider: "webhook", enabled: true });

  // What the script set up reads back through Unleash's own read paths.
  const [flag, archived, users] = await run(
    [
      { method: "GET", path: `${P}/features/checkout`, status: 200 },
      { method: "GET", path: `${P}/features/checkout-banner`, status: 404 },
      { method: "GET", path: "/api/admin/user-admin", status: 200 },
    ],
    { authorization: ADMIN_TOKEN },
  );
  expect(archived).toMatchObject({ name: "NotFoundError" });
  expect(flag).toMatchObject({ name: "checkout", type: "release", favorite: true });
  const development = flag.environments.find((e: { name: string }) => e.name === "development");
  expect(development).toMatchObject({ enabled: true });
  expect(development.strategies).toEqual([
    expect.objectContaining({
      name: "flexibleRollout",
      parameters: rollout.parameters,
      constraints: [expect.objectContaining(rollout.constraints[0])],
    }),
  ]);
  expect(development.variants.map((v: { name: string }) => v.name)).toEqual(["blue", "green"]);
  expect(users.users.map((u: { email: string }) => u.email)).toContain("dev@example.com");

  // Unleash's own Node SDK, with a client token the script makes, evaluates what it set up.
  const [token] = await run(
    [
      {
        method: "POST",
        path: "/api/admin/api-tokens",
        body: { tokenName: "backend", type: "client", environment: "development" },
        status: 201,
      },
    ],
    { authorization: ADMIN_TOKEN },
  );
  const sdk = new Unleash({
    url: `${t.url}/api`,
    appName: "setup-script",
    customHeaders: { Authorization: token.secret },
    disableMetrics: true,
    refreshInterval: 60_000,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      sdk.once(UnleashEvents.Synchronized, () => resolve());
      sdk.once(UnleashEvents.Error, reject);
    });
    expect(sdk.isEnabled("checkout", { userId: "u1", properties: { region: "eu" } })).toBe(true);
    expect(sdk.isEnabled("checkout", { userId: "u1", properties: { region: "us" } })).toBe(false);
    expect(["blue", "green"]).toContain(
      sdk.getVariant("checkout", { userId: "u1", properties: { region: "eu" } }).name,
    );
    expect(sdk.isEnabled("checkout-banner")).toBe(false); // archived
  } finally {
    sdk.destroy();
  }
});

it("a person's script: password login, a personal access token made with the session cookie, then used alone", async () => {
  const login = await call(
    {
      method: "POST",
      path: "/auth/simple/login",
      body: { username: "admin", password: "Admin-Password-1" },
      status: 200,
    },
    {},
  );
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const [pat] = await run(
    [
      {
        method: "POST",
        path: "/api/admin/user/tokens",
        body: { description: "ci script", expiresAt: "2099-01-01T00:00:00Z" },
        status: 201,
      },
    ],
    // A script sends the cookie it got, with the Origin of the server (or none): no CSRF header.
    { cookie, origin: t.url },
  );
  expect(pat.secret).toEqual(expect.any(String));
  await run(
    [
      { method: "GET", path: "/api/admin/projects", status: 200 },
      { method: "POST", path: `${P}/features`, body: { name: "pat-made" }, status: 201 },
      { method: "GET", path: "/api/admin/user", status: 200 },
    ],
    { authorization: pat.secret },
  );
  // Another site's page sending the same cookie is still refused.
  const crossSite = await call(
    {
      method: "POST",
      path: "/api/admin/user/tokens",
      body: { description: "x", expiresAt: "2099-01-01T00:00:00Z" },
      status: 403,
    },
    {
      cookie,
      origin: "https://evil.example",
    },
  );
  expect(crossSite.status).toBe(403);
});
