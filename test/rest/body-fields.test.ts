import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "../../rest/route.ts";
import { allRoutes } from "../../rest/routes/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { archiveFlag, createFlag, userWithPat } from "../helpers/builders.ts";
import { PASSWORD } from "../helpers/session.ts";

/*
 * Issue 14, point 3: every REST route with a JSON body that Unleash also serves answers an
 * unknown body field as Unleash does. Where Unleash's request schema (its OpenAPI document,
 * test/rest/unleash-request-bodies.json, from scripts/unleash-request-bodies.ts) forbids other
 * properties (`additionalProperties: false`), at the top or in a nested object the body fills
 * in, the answer is 400 naming the field; elsewhere the field is ignored: the call answers as
 * without it. A wrong JSON type for a field is a 400 naming the field, in REST words.
 * The route table is walked: a new route with an Unleash body needs a row in CASES.
 */

type Schema = Record<string, unknown>;
const reference = JSON.parse(
  readFileSync(new URL("./unleash-request-bodies.json", import.meta.url), "utf8"),
) as {
  operations: Record<string, Schema>;
  schemas: Record<string, Schema>;
};

const UNKNOWN = "vexilUnknownField";
/** GraphQL's own wording, which a REST caller must never read. */
const GRAPHQL_WORDING =
  /Variable "\$|got invalid value|is not defined by type|cannot represent|of required type|non-nullable type|Expected type|\$[a-z]\w*/i;

let t: TestApp;
let adminPat: string;
let passwordUserPat: string;
let targetUserId: number;
let strategyId: string;
let segmentId: number;
let addonId: number;
let inviteSecret: string;
let exportDocument: unknown;
let linkId: string;
let apiTokenSecret: string;
let counter = 0;
const resetTokens = new Map<number, string>();

type Path = (string | number)[];
type Endpoint = Pick<Route, "method" | "path">;
type Case = {
  /** Path parameters; `n` is unique per call. */
  params?: (n: number) => Record<string, string>;
  /** The valid body (default: the example of Unleash's request schema). */
  body?: (n: number) => unknown;
  /** Runs before each call (fresh flags to archive, a user to reset...). */
  prepare?: (n: number) => Promise<void>;
  token?: () => string;
  /** A field and a value of the wrong JSON type (default: the first string field gets a number). */
  wrongType?: { path: Path; value: unknown };
  /** Parts of the body Vexil reads tolerantly on purpose (docs/decisions.md D-19), not walked. */
  tolerant?: string[];
  /** Why this route is left out (its body has no fixed fields). */
  skip?: string;
};

const FLAG = { projectId: "default", featureName: "bf-flag" };
const DEV = { ...FLAG, environment: "development" };
const constraint = { contextName: "userId", operator: "IN", values: ["1", "2"] };
const variant = {
  name: "v1",
  weight: 1000,
  weightType: "variable",
  stickiness: "default",
  payload: { type: "string", value: "p" },
  overrides: [{ contextName: "userId", values: ["1"] }],
};
const FUTURE = "2099-01-01T00:00:00.000Z";

async function ok(method: string, path: string, body?: unknown, status?: number) {
  const res = await t.rest(method, path, body);
  if (status ? res.status !== status : res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A valid body per route (Unleash's example where its schema has one, see `bodyOf`). */
const CASES: Record<string, Case> = {
  "POST /api/admin/projects/:projectId/features": {
    params: () => ({ projectId: "default" }),
    body: (n) => ({ name: `bf-new-${n}`, tags: [{ type: "simple", value: "created" }] }),
  },
  "PUT /api/admin/projects/:projectId/features/:featureName": {
    params: () => FLAG,
    body: () => ({ description: "body fields", impressionData: false }),
  },
  "PATCH /api/admin/projects/:projectId/features/:featureName": {
    params: () => FLAG,
    body: () => [{ op: "replace", path: "/description", value: "patched" }],
  },
  "POST /api/admin/projects/:projectId/features/:featureName/lifecycle/complete": {
    params: () => FLAG,
    body: () => ({ status: "kept", statusValue: "v1" }),
  },
  "POST /api/admin/projects/:projectId/bulk_features/environments/:environment/on": {
    params: () => ({ projectId: "default", environment: "development" }),
    body: () => ({ features: ["bf-flag"] }),
  },
  "POST /api/admin/projects/:projectId/bulk_features/environments/:environment/off": {
    params: () => ({ projectId: "default", environment: "production" }),
    body: () => ({ features: ["bf-flag"] }),
  },
  "POST /api/admin/features/validate": { body: (n) => ({ name: `bf-free-${n}` }) },
  "PUT /api/admin/features/:featureName/tags": { params: () => ({ featureName: "bf-flag" }) },
  "POST /api/admin/features/:featureName/tags": {
    params: () => ({ featureName: "bf-flag" }),
    body: (n) => ({ type: "simple", value: `bf-tag-${n}` }),
  },
  "POST /api/admin/projects/:projectId/features/:featureName/clone": {
    params: () => FLAG,
    body: (n) => ({ name: `bf-clone-${n}`, replaceGroupId: true }),
  },
  "POST /api/admin/constraints/validate": { body: () => constraint },
  "PUT /api/admin/feature-types/:id/lifetime": {
    params: () => ({ id: "release" }),
    body: () => ({ lifetimeDays: 40 }),
  },
  "POST /api/admin/projects/:projectId/archive/validate": {
    params: () => ({ projectId: "default" }),
    body: () => ({ features: ["bf-flag"] }),
  },
  "POST /api/admin/projects/:projectId/archive": {
    params: () => ({ projectId: "default" }),
    prepare: async (n) => void (await createFlag(t, `bf-archive-${n}`)),
    body: (n) => ({ features: [`bf-archive-${n}`] }),
  },
  "POST /api/admin/projects/:projectId/stale": {
    params: () => ({ projectId: "default" }),
    body: () => ({ features: ["bf-flag"], stale: false }),
  },
  "POST /api/admin/projects/:projectId/revive": {
    params: () => ({ projectId: "default" }),
    prepare: async (n) => {
      await createFlag(t, `bf-revive-${n}`);
      await archiveFlag(t, `bf-revive-${n}`);
    },
    body: (n) => ({ features: [`bf-revive-${n}`] }),
  },
  "POST /api/admin/projects/:projectId/delete": {
    params: () => ({ projectId: "default" }),
    prepare: async (n) => {
      await createFlag(t, `bf-delete-${n}`);
      await archiveFlag(t, `bf-delete-${n}`);
    },
    body: (n) => ({ features: [`bf-delete-${n}`] }),
  },
  "POST /api/admin/projects/:projectId/features/:featureName/dependencies": {
    params: () => ({ projectId: "default", featureName: "bf-child" }),
    body: () => ({ feature: "bf-parent", enabled: true }),
  },
  "PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants": {
    params: () => DEV,
    body: () => [variant],
  },
  "PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/variants": {
    params: () => DEV,
    prepare: async () =>
      void (await ok(
        "PUT",
        "/api/admin/projects/default/features/bf-flag/environments/development/variants",
        [variant],
      )),
    body: () => [{ op: "replace", path: "/0/stickiness", value: "userId" }],
  },
  "PUT /api/admin/projects/:projectId/features/:featureName/variants-batch": {
    params: () => FLAG,
    body: () => ({ variants: [variant], environments: ["development"] }),
  },
  "POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies": {
    params: () => DEV,
    body: () => ({
      name: "flexibleRollout",
      parameters: { rollout: "100", stickiness: "default", groupId: "bf-flag" },
      constraints: [constraint],
      variants: [{ name: "a", weight: 1000, weightType: "variable", stickiness: "default" }],
    }),
  },
  "POST /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/set-sort-order":
    { params: () => DEV, body: () => [{ id: strategyId, sortOrder: 0 }] },
  "PUT /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId":
    {
      params: () => ({ ...DEV, strategyId }),
      body: () => ({
        name: "flexibleRollout",
        parameters: { rollout: "50", stickiness: "default", groupId: "bf-flag" },
        constraints: [constraint],
        variants: [{ name: "a", weight: 1000, weightType: "variable", stickiness: "default" }],
      }),
    },
  "PATCH /api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId":
    { params: () => ({ ...DEV, strategyId }), body: () => [{ op: "replace", path: "/title", value: "t" }] },
  "POST /api/admin/strategies": {
    body: (n) => ({ name: `bf-type-${n}`, parameters: [{ name: "p", type: "string", required: false }] }),
  },
  "PUT /api/admin/strategies/:name": {
    params: () => ({ name: "bf-strategy" }),
    body: () => ({ parameters: [{ name: "p", type: "string", required: false }] }),
  },
  "POST /api/admin/segments": {
    body: (n) => ({ name: `bf-segment-${n}`, constraints: [constraint] }),
  },
  "PUT /api/admin/segments/:id": {
    params: () => ({ id: String(segmentId) }),
    body: () => ({ name: "bf-segment", constraints: [constraint] }),
  },
  "POST /api/admin/segments/validate": { body: (n) => ({ name: `bf-free-segment-${n}` }) },
  "POST /api/admin/segments/strategies": {
    body: () => ({
      projectId: "default",
      strategyId,
      environmentId: "development",
      segmentIds: [segmentId],
    }),
  },
  "POST /api/admin/projects/:projectId/api-tokens": {
    params: () => ({ projectId: "default" }),
    body: (n) => ({ tokenName: `bf-project-${n}`, type: "client", environment: "development" }),
  },
  "POST /api/admin/projects/:projectId/environments/:environment/default-strategy": {
    params: () => ({ projectId: "default", environment: "development" }),
    body: () => ({
      name: "flexibleRollout",
      parameters: { rollout: "100", stickiness: "default", groupId: "" },
      constraints: [constraint],
    }),
  },
  "POST /api/admin/projects/:projectId/environments": {
    params: () => ({ projectId: "bf" }),
    prepare: async () => void (await t.rest("DELETE", "/api/admin/projects/bf/environments/production")),
    body: () => ({ environment: "production" }),
  },
  "PUT /api/admin/environments/sort-order": {
    body: () => ({ development: 1 }),
    skip: "its keys are environment names (additionalProperties is their sort order), not fields",
  },
  "POST /api/admin/context": {
    body: (n) => ({ name: `bf-context-${n}`, legalValues: [{ value: "a", description: "A" }] }),
  },
  "PUT /api/admin/context/:contextField": {
    params: () => ({ contextField: "bf-context" }),
    body: () => ({ description: "d", legalValues: [{ value: "a", description: "A" }] }),
  },
  "POST /api/admin/context/validate": { body: (n) => ({ name: `bf-free-context-${n}` }) },
  "POST /api/admin/context/:contextField/legal-values": {
    params: () => ({ contextField: "bf-context" }),
    body: () => ({ value: "b", description: "B" }),
  },
  "POST /api/admin/projects/:projectId/context": {
    params: () => ({ projectId: "default" }),
    body: (n) => ({ name: `bf-project-context-${n}`, legalValues: [{ value: "a", description: "A" }] }),
  },
  "PUT /api/admin/projects/:projectId/context/:contextField": {
    params: () => ({ projectId: "default", contextField: "bf-project-context" }),
    body: () => ({ description: "d", legalValues: [{ value: "a", description: "A" }] }),
  },
  "POST /api/admin/projects/:projectId/context/validate": {
    params: () => ({ projectId: "default" }),
    body: (n) => ({ name: `bf-free-project-context-${n}` }),
  },
  "POST /api/admin/projects/:projectId/context/:contextField/legal-values": {
    params: () => ({ projectId: "default", contextField: "bf-project-context" }),
    body: () => ({ value: "b", description: "B" }),
  },
  "POST /api/admin/projects/:projectId/features/:featureName/link": {
    params: () => FLAG,
    body: (n) => ({ url: `https://example.com/bf/${n}`, title: "docs" }),
  },
  "PUT /api/admin/projects/:projectId/features/:featureName/link/:linkId": {
    params: () => ({ ...FLAG, linkId }),
    body: () => ({ url: "https://example.com/bf/updated", title: "updated" }),
  },
  "PUT /api/admin/api-tokens/:token": {
    params: () => ({ token: apiTokenSecret }),
    body: () => ({ expiresAt: FUTURE }),
  },
  "POST /api/admin/ui-config/cors": { body: () => ({ frontendApiOrigins: ["*"] }) },
  "POST /api/admin/tag-types": { body: (n) => ({ name: `bf-tag-type-${n}`, description: "d" }) },
  "PUT /api/admin/tag-types/:name": {
    params: () => ({ name: "bf-tag-type" }),
    body: () => ({ description: "d" }),
  },
  "POST /api/admin/tags": { body: (n) => ({ type: "simple", value: `bf-tag-${n}` }) },
  "POST /api/admin/tag-types/validate": { body: (n) => ({ name: `bf-free-tag-type-${n}` }) },
  "PUT /api/admin/projects/:projectId/tags": {
    params: () => ({ projectId: "default" }),
    body: () => ({
      features: ["bf-flag"],
      tags: { addedTags: [{ type: "simple", value: "bulk" }], removedTags: [] },
    }),
  },
  "POST /api/admin/user/change-password": {
    token: () => passwordUserPat,
    body: () => ({ password: "N3w-Passw0rd!x", confirmPassword: "N3w-Passw0rd!x", oldPassword: PASSWORD }),
  },
  "POST /api/admin/user-admin/validate-password": { body: () => ({ password: "Str0ng-Passw0rd!" }) },
  "POST /api/admin/user-admin/inactive/delete": { body: () => ({ ids: [999999] }) },
  "POST /api/admin/user-admin/:id/change-password": {
    params: () => ({ id: String(targetUserId) }),
    body: () => ({ password: "An0ther-Passw0rd!" }),
  },
  "POST /api/admin/user-admin": {
    body: (n) => ({ username: `bf-user-${n}`, email: `bf-user-${n}@example.com`, rootRole: "Viewer" }),
  },
  "PUT /api/admin/user-admin/:id": {
    params: () => ({ id: String(targetUserId) }),
    body: () => ({ name: "Target User" }),
  },
  "POST /api/admin/user-admin/reset-password": {
    prepare: async (n) =>
      void (await ok("POST", "/api/admin/user-admin", {
        email: `bf-reset-${n}@example.com`,
        rootRole: "Viewer",
      })),
    body: (n) => ({ id: `bf-reset-${n}@example.com` }),
  },
  "POST /api/admin/invite-link/tokens": { body: (n) => ({ name: `bf-invite-${n}`, expiresAt: FUTURE }) },
  "PUT /api/admin/invite-link/tokens/:token": {
    params: () => ({ token: inviteSecret }),
    body: () => ({ enabled: true, expiresAt: FUTURE }),
  },
  "POST /api/admin/api-tokens": {
    body: (n) => ({
      tokenName: `bf-token-${n}`,
      type: "client",
      environment: "development",
      projects: ["default"],
    }),
  },
  "POST /api/admin/user/tokens": {
    token: () => adminPat,
    body: (n) => ({ description: `bf-pat-${n}`, expiresAt: FUTURE }),
  },
  "POST /api/admin/maintenance": { body: () => ({ enabled: false }) },
  "POST /api/admin/addons": {
    body: () => ({
      provider: "webhook",
      enabled: false,
      parameters: { url: "https://example.com/hook" },
      events: ["feature-created"],
    }),
  },
  "PUT /api/admin/addons/:id": {
    params: () => ({ id: String(addonId) }),
    body: () => ({
      provider: "webhook",
      enabled: false,
      parameters: { url: "https://example.com/hook" },
      events: ["feature-created"],
    }),
  },
  "POST /api/admin/playground": {
    body: () => ({ environment: "development", projects: "*", context: { appName: "bf", userId: "1" } }),
  },
  "POST /api/admin/playground/advanced": {
    body: () => ({ environments: ["development"], projects: "*", context: { appName: "bf", userId: "1" } }),
  },
  "POST /api/admin/metrics/applications/:appName": {
    params: () => ({ appName: "bf-app" }),
    body: () => ({ url: "https://example.com", color: "red", icon: "flag" }),
  },
  "POST /api/admin/features-batch/export": {
    body: () => ({ environment: "development", features: ["bf-flag"] }),
  },
  "POST /auth/simple/login": { body: () => ({ username: "bf-admin", password: PASSWORD }) },
  "POST /auth/reset/password": {
    prepare: async (n) => {
      const email = `bf-reset-link-${n}@example.com`;
      await ok("POST", "/api/admin/user-admin", { email, rootRole: "Viewer" });
      const { resetPasswordUrl } = await ok("POST", "/api/admin/user-admin/reset-password", { id: email });
      resetTokens.set(n, new URL(resetPasswordUrl).searchParams.get("token") ?? "");
    },
    body: (n) => ({ token: resetTokens.get(n), password: "Fresh-Passw0rd!" }),
  },
  "POST /auth/reset/password-email": { body: () => ({ email: "bf-target@example.com" }) },
  "POST /auth/reset/validate-password": { body: () => ({ password: "Str0ng-Passw0rd!" }) },
  "POST /invite/:token/signup": {
    params: () => ({ token: inviteSecret }),
    body: (n) => ({ email: `bf-invited-${n}@example.com`, name: "Invited", password: "Str0ng-Passw0rd!" }),
  },
  "POST /api/admin/features-batch/validate": {
    body: () => ({ project: "default", environment: "development", data: exportDocument }),
    tolerant: ["data"],
  },
  "POST /api/admin/features-batch/import": {
    body: () => ({ project: "default", environment: "development", data: exportDocument }),
    tolerant: ["data"],
  },
};

beforeAll(async () => {
  t = await createTestApp();
  adminPat = (await userWithPat(t, "bf-admin", "Admin")).token;
  passwordUserPat = (await userWithPat(t, "bf-password", "Viewer")).token;
  targetUserId = (
    await ok("POST", "/api/admin/user-admin", { email: "bf-target@example.com", rootRole: "Viewer" })
  ).id;
  for (const name of ["bf-flag", "bf-parent", "bf-child"]) await createFlag(t, name);
  strategyId = (
    await ok("POST", "/api/admin/projects/default/features/bf-flag/environments/development/strategies", {
      name: "default",
    })
  ).id;
  segmentId = (await ok("POST", "/api/admin/segments", { name: "bf-segment", constraints: [] })).id;
  await ok("POST", "/api/admin/context", { name: "bf-context" });
  await ok("POST", "/api/admin/projects/default/context", { name: "bf-project-context" });
  await ok("POST", "/api/admin/projects/default/features/bf-flag/link", { url: "https://example.com/bf" });
  linkId = (await ok("GET", "/api/admin/projects/default/features/bf-flag")).links[0].id;
  apiTokenSecret = (
    await ok("POST", "/api/admin/api-tokens", {
      tokenName: "bf-token",
      type: "client",
      environment: "development",
    })
  ).secret;
  await ok("POST", "/api/admin/tag-types", { name: "bf-tag-type" });
  await ok("POST", "/api/admin/strategies", { name: "bf-strategy", parameters: [] });
  await ok("POST", "/api/admin/projects", { id: "bf", name: "Body fields" });
  addonId = (await ok("POST", "/api/admin/addons", CASES["POST /api/admin/addons"]?.body?.(0))).id;
  inviteSecret = (await ok("POST", "/api/admin/invite-link/tokens", { name: "bf-invite", expiresAt: FUTURE }))
    .secret;
  exportDocument = await ok("POST", "/api/admin/features-batch/export", {
    environment: "development",
    features: ["bf-flag"],
  });
});
afterAll(() => t?.close());

// ---- Unleash's request schemas ----

function deref(schema: unknown): Schema {
  let s = (schema ?? {}) as Schema;
  while (typeof s.$ref === "string") s = reference.schemas[s.$ref.split("/").pop() ?? ""] ?? {};
  return s;
}

type ObjectNode = { properties: Record<string, Schema>; strict: boolean };

/** An object schema's fields and whether it forbids others (allOf merged; oneOf strict if all are). */
function objectNode(schema: unknown): ObjectNode | null {
  const s = deref(schema);
  const parts = (s.allOf as Schema[] | undefined)?.map(objectNode) ?? [];
  const options = ((s.oneOf ?? s.anyOf) as Schema[] | undefined)?.map(objectNode) ?? [];
  const own = (s.properties as Record<string, Schema> | undefined) ?? {};
  const nodes = [...parts, ...options].filter((n): n is ObjectNode => n !== null);
  const properties = Object.assign({}, own, ...nodes.map((n) => n.properties)) as Record<string, Schema>;
  if (Object.keys(properties).length === 0) return null; // a map (or no object): no fields to know
  const strict =
    s.additionalProperties === false ||
    parts.some((n) => n?.strict) ||
    (options.length > 0 && options.every((n) => n?.strict));
  return { properties, strict };
}

function itemsOf(schema: unknown): unknown {
  const s = deref(schema);
  return s.items ?? (s.allOf as Schema[] | undefined)?.map((p) => deref(p).items).find(Boolean);
}

/** Every object in `value` that Unleash's schema gives fields, with where it is and its strictness. */
function objectsIn(
  schema: unknown,
  value: unknown,
  path: Path,
  tolerant: string[],
): { path: Path; strict: boolean }[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => objectsIn(itemsOf(schema), item, [...path, i], tolerant));
  if (!value || typeof value !== "object") return [];
  if (tolerant.includes(restPath(path))) return [];
  const node = objectNode(schema);
  if (!node) return [];
  return [
    { path, strict: node.strict },
    ...Object.entries(value).flatMap(([key, inner]) =>
      node.properties[key] ? objectsIn(node.properties[key], inner, [...path, key], tolerant) : [],
    ),
  ];
}

/** A path as a REST caller writes it: `constraints[0].values`, `[0].op`. */
function restPath(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function withValue(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  target[path[path.length - 1] as string | number] = value;
  return copy;
}

/** The first string field (of the body or its first item); else the first field of another type. */
function defaultWrongType(body: unknown): { path: Path; value: unknown } {
  const [prefix, object] = Array.isArray(body) ? [[0], body[0]] : [[], body];
  const entries = Object.entries(object as Record<string, unknown>);
  const text = entries.find(([, v]) => typeof v === "string");
  if (text) return { path: [...prefix, text[0]], value: 12345 };
  const [key, value] = entries[0] ?? ["", null];
  const wrong = typeof value === "boolean" ? "yes" : typeof value === "number" ? "forty" : 12345;
  return { path: [...prefix, key], value: wrong };
}

const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}|:\w+/g, "{}")}`;
const unleashSchemas = new Map(
  Object.entries(reference.operations).map(([k, v]) => [shape(...(k.split(" ") as [string, string])), v]),
);
/** The /auth and /invite endpoints are served beside the route table (cookies, no credential). */
const OUTSIDE_TABLE: Endpoint[] = [
  { method: "POST", path: "/auth/simple/login" },
  { method: "POST", path: "/auth/reset/password" },
  { method: "POST", path: "/auth/reset/password-email" },
  { method: "POST", path: "/auth/reset/validate-password" },
  { method: "POST", path: "/invite/:token/signup" },
];
const bodyRoutes: Endpoint[] = [...allRoutes, ...OUTSIDE_TABLE].filter((r) =>
  unleashSchemas.has(shape(r.method, r.path)),
);

function unleashSchemaOf(route: Endpoint): Schema {
  return unleashSchemas.get(shape(route.method, route.path)) as Schema;
}

/** The route's case, with Unleash's example body where its schema has one. */
function caseOf(route: Endpoint): Case & { body: (n: number) => unknown } {
  const entry = CASES[`${route.method} ${route.path}`];
  if (!entry) throw new Error(`No case for ${route.method} ${route.path}: add a row to CASES`);
  if (entry.body) return { ...entry, body: entry.body };
  const example = deref(unleashSchemaOf(route)).example;
  if (example === undefined)
    throw new Error(`${route.method} ${route.path}: Unleash has no example; write a body`);
  return { ...entry, body: () => structuredClone(example) };
}

async function call(route: Endpoint, entry: Case, body: (n: number) => unknown) {
  const n = ++counter;
  await entry.prepare?.(n);
  const params = entry.params?.(n) ?? {};
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
    encodeURIComponent(params[name] ?? `missing-${name}`),
  );
  return t.rest(route.method, path, body(n), entry.token?.());
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function expectRestValidationError(res: { status: number; body: unknown }, field: string, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
  const error = res.body as { id: string; name: string; message: string };
  expect(error, what).toMatchObject({
    id: expect.any(String),
    name: "ValidationError",
    message: expect.any(String),
  });
  // `"tags[0].value" must be ...` (REST layer) or `tags.0.value: ...` (a service's field check)
  const dotted = field.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
  const named =
    error.message.includes(`"${field}"`) || new RegExp(`(^|; )${escapeRegExp(dotted)}: `).test(error.message);
  expect(named, `${what}: ${error.message} names ${field}`).toBe(true);
  expect(error.message, what).not.toMatch(GRAPHQL_WORDING);
}

/** The object (or list) alternative of a JSON schema zod wrote (`nullish` is an anyOf with null). */
function vexilNode(schema: unknown): Schema {
  const s = (schema ?? {}) as Schema;
  const options = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  return options?.map(vexilNode).find((o) => o.properties || o.items) ?? s;
}

/**
 * Where Vexil's documented body (its OpenAPI document) and Unleash's disagree on unknown fields:
 * Vexil refuses them exactly where Unleash does, and knows every field Unleash takes there.
 */
function disagreements(vexil: unknown, unleash: unknown, path: Path, tolerant: string[]): string[] {
  const v = vexilNode(vexil);
  if (tolerant.includes(restPath(path))) return [];
  if (v.items) return disagreements(v.items, itemsOf(unleash), [...path, 0], tolerant);
  const vexilFields = v.properties as Record<string, Schema> | undefined;
  const u = objectNode(unleash);
  const at = restPath(path) || "(body)";
  const vexilStrict = v.additionalProperties === false;
  if (!u) return vexilStrict ? [`${at}: Vexil refuses unknown fields, Unleash has no fixed fields here`] : [];
  if (!vexilFields)
    return u.strict ? [`${at}: Unleash refuses unknown fields, Vexil declares no fields`] : [];
  const problems: string[] = [];
  if (u.strict !== vexilStrict)
    problems.push(`${at}: unknown fields are ${u.strict ? "refused" : "ignored"} by Unleash, not by Vexil`);
  if (vexilStrict) {
    const unknownToVexil = Object.keys(u.properties).filter((k) => !(k in vexilFields));
    if (unknownToVexil.length)
      problems.push(`${at}: Vexil would refuse Unleash's ${unknownToVexil.join(", ")}`);
  }
  for (const [key, field] of Object.entries(vexilFields)) {
    const theirs = u.properties[key];
    if (theirs) problems.push(...disagreements(field, theirs, [...path, key], tolerant));
  }
  return problems;
}

describe("unknown body fields, as Unleash answers them", () => {
  it("are refused exactly where Unleash refuses them, in the documented schemas (every depth)", async () => {
    const doc = (await (await t.app.fetch("http://vexil.test/docs/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>
      >;
    };
    const problems = bodyRoutes.flatMap((route) => {
      const documented = doc.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
      const schema = documented?.requestBody?.content["application/json"]?.schema;
      if (!schema) return [`${route.method} ${route.path}: no documented body`];
      const tolerant = CASES[`${route.method} ${route.path}`]?.tolerant ?? [];
      return disagreements(schema, unleashSchemaOf(route), [], tolerant).map(
        (p) => `${route.method} ${route.path} ${p}`,
      );
    });
    expect(problems).toEqual([]);
  });

  it("word missing and malformed fields for the REST caller, at any depth", async () => {
    const strategies = "/api/admin/projects/default/features/bf-flag/environments/development/strategies";
    const cases: [string, string, unknown, string, RegExp][] = [
      ["POST", "/api/admin/projects/default/features", {}, "name", /is required/],
      [
        "POST",
        strategies,
        { name: "default", constraints: [{ contextName: "userId" }] },
        "constraints[0].operator",
        /is required/,
      ],
      [
        "POST",
        strategies,
        { name: "default", constraints: [{ contextName: "userId", operator: "NOPE" }] },
        "constraints[0].operator",
        /must be one of .*"IN", "NOT_IN"/,
      ],
      ["POST", strategies, { name: "default", constraints: "userId" }, "constraints", /must be a list/],
      [
        "POST",
        "/api/admin/projects/default/archive/validate",
        { features: "bf-flag" },
        "features",
        /must be a list/,
      ],
      [
        "PATCH",
        "/api/admin/projects/default/features/bf-flag",
        { op: "replace" },
        "",
        /The request body must be a list/,
      ],
    ];
    for (const [method, path, body, field, problem] of cases) {
      const res = await t.rest(method, path, body);
      if (field) expectRestValidationError(res, field, `${method} ${path} ${JSON.stringify(body)}`);
      else expect(res.status).toBe(400);
      expect(res.body.message).toMatch(problem);
      expect(res.body.message).not.toMatch(GRAPHQL_WORDING);
    }
  });

  it("covers every route with an Unleash request body", () => {
    expect(bodyRoutes.length).toBeGreaterThan(60);
    expect(
      bodyRoutes.filter((r) => !CASES[`${r.method} ${r.path}`]).map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });

  for (const route of bodyRoutes) {
    const entry = CASES[`${route.method} ${route.path}`];
    const title = `${route.method} ${route.path}`;
    if (entry?.skip) {
      it.skip(`${title} (${entry.skip})`, () => {});
      continue;
    }
    it(title, async () => {
      const c = caseOf(route);
      const baseline = await call(route, c, c.body);
      expect(baseline.status, `valid body: ${JSON.stringify(baseline.body)}`).toBeLessThan(300);
      const objects = objectsIn(unleashSchemaOf(route), c.body(0), [], c.tolerant ?? []);
      expect(objects.length).toBeGreaterThan(0);
      for (const { path, strict } of objects) {
        const field = restPath([...path, UNKNOWN]);
        const res = await call(route, c, (n) => withValue(c.body(n), [...path, UNKNOWN], "surprise"));
        if (strict) expectRestValidationError(res, field, `${field} (Unleash refuses it)`);
        else {
          expect(res.status, `${field} (Unleash ignores it): ${JSON.stringify(res.body)}`).toBe(
            baseline.status,
          );
          if (baseline.body && typeof baseline.body === "object" && !Array.isArray(baseline.body))
            expect(Object.keys(res.body).sort()).toEqual(Object.keys(baseline.body).sort());
        }
      }
      const wrong = c.wrongType ?? defaultWrongType(c.body(0));
      const res = await call(route, c, (n) => withValue(c.body(n), wrong.path, wrong.value));
      expectRestValidationError(
        res,
        restPath(wrong.path),
        `${restPath(wrong.path)} = ${JSON.stringify(wrong.value)}`,
      );
    });
  }
});
