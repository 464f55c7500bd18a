/**
 * The request corpus: for every operation of Unleash 8.2's list that Vexil serves, each caller
 * (admin token, Editor, Viewer, no credential; SDK routes with their SDK token instead of the
 * users) with a valid body and an invalid one, built from Unleash's own request schema
 * (test/rest/unleash-request-bodies.json). Path parameters name the fixtures' entities.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Fixture } from "./fixtures.ts";

export type Operation = { tag: string; method: string; path: string };
export type Caller = keyof Fixture["credentials"];
export type Variant = "valid" | "invalid" | "none";
export type PeerRequest = { operation: Operation; caller: Caller; variant: Variant; body: unknown };

export function referenceOperations(file: string): Operation[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.match(/^\| ([^|]+) \| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/))
    .flatMap((m) => (m ? [{ tag: (m[1] ?? "").trim(), method: m[2] ?? "", path: m[3] ?? "" }] : []));
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  example?: unknown;
  minItems?: number;
};
const bodies = JSON.parse(
  readFileSync(resolve(import.meta.dirname, "../../test/rest/unleash-request-bodies.json"), "utf8"),
) as { operations: Record<string, Schema>; schemas: Record<string, Schema> };

function deref(schema: Schema): Schema {
  let current = schema;
  for (let i = 0; current.$ref && i < 20; i++)
    current = bodies.schemas[current.$ref.split("/").pop() ?? ""] ?? {};
  return current;
}

/** A value for a string field, by its name and format. */
function text(name: string, format?: string): string {
  if (format === "email" || /email/i.test(name)) return "peer-new@example.com";
  if (format === "uri" || format === "url" || /url/i.test(name)) return "http://127.0.0.1:9/peer";
  if (format === "date-time" || format === "date" || /At$/.test(name)) return "2099-01-01T00:00:00.000Z";
  if (/^(project|projectId)$/.test(name)) return "default";
  if (/^(environment|env)$/.test(name)) return "development";
  if (/^(feature|featureName|parent)$/.test(name)) return "peer-parent";
  if (/password/i.test(name)) return "Another-Pa55word!";
  if (/type$/i.test(name)) return "simple";
  return `peer-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-") || "value"}`;
}

/** A body with every required field, valued by name (the first enum value, false, 1...). */
export function sample(raw: Schema, name = "body", depth = 0): unknown {
  const schema = deref(raw);
  if (depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (typeof schema.example === "string" && depth > 0) return schema.example;
  const parts = schema.allOf?.map((s) => sample(s, name, depth + 1));
  if (parts?.length) return Object.assign({}, ...parts.filter((p) => p && typeof p === "object"));
  const alternative = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (alternative) return sample(alternative, name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    return Object.fromEntries(
      (schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {}, key, depth + 1)]),
    );
  }
  if (type === "array") {
    const count = schema.minItems ?? 0;
    return Array.from({ length: count }, () => sample(schema.items ?? {}, name, depth + 1));
  }
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return false;
  return text(name, schema.format);
}

/** The invalid twin of a valid body: its first required field dropped, else a body of the wrong type. */
function invalid(raw: Schema, valid: unknown): unknown {
  const schema = deref(raw);
  const required = schema.required ?? [];
  if (valid && typeof valid === "object" && !Array.isArray(valid) && required.length > 0) {
    const { [required[0] as string]: _dropped, ...rest } = valid as Record<string, unknown>;
    return rest;
  }
  return Array.isArray(valid) ? { peerDiff: "not-a-list" } : "peer-diff-not-an-object";
}

const SDK_TAGS = new Set(["Client", "Unleash Edge"]);
const FRONTEND_TAGS = new Set(["Frontend API"]);

/** Endpoints called without a credential: a user's cookie on a failed login would end its session. */
const PUBLIC = /^\/(auth|invite)\//;

export function callersOf(operation: Operation): Caller[] {
  if (PUBLIC.test(operation.path)) return ["none"];
  if (SDK_TAGS.has(operation.tag)) return ["client", "admin", "none"];
  if (FRONTEND_TAGS.has(operation.tag)) return ["frontend", "admin", "none"];
  return ["none", "viewer", "editor", "admin"];
}

/** Valid bodies the sampler cannot guess (it would switch maintenance mode on). */
const VALID_BODIES: Record<string, unknown> = {
  "POST /api/admin/maintenance": { enabled: false },
};

export function requestsOf(operation: Operation): PeerRequest[] {
  const key = `${operation.method} ${operation.path}`;
  const schema = bodies.operations[key];
  const variants: { variant: Variant; body: unknown }[] = schema
    ? (() => {
        const valid = key in VALID_BODIES ? VALID_BODIES[key] : sample(schema);
        return [
          { variant: "invalid" as const, body: invalid(schema, valid) },
          { variant: "valid" as const, body: valid },
        ];
      })()
    : [{ variant: "none", body: undefined }];
  return callersOf(operation).flatMap((caller) => variants.map((v) => ({ operation, caller, ...v })));
}

/** The operation's path with the fixtures' names and this server's ids. */
export function concretePath(path: string, ids: Fixture["ids"]): string {
  const byName: Record<string, string> = {
    projectId: "default",
    featureName: "peer-flag",
    child: "peer-flag",
    parent: "peer-parent",
    environment: "development",
    contextField: "peer-context",
    legalValue: "a",
    strategyId: ids.strategy,
    strategyName: "flexibleRollout",
    appName: "peer-app",
    linkId: "peer-nothing",
    type: "simple",
    value: "peer-tag",
    token: "peer-nothing",
  };
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === "id") {
      if (path.startsWith("/api/admin/addons/")) return ids.addon;
      if (path.startsWith("/api/admin/segments/")) return ids.segment;
      if (path.startsWith("/api/admin/user-admin/")) return ids.victim;
      if (path.startsWith("/api/admin/feature-types/")) return "release";
      return "999999";
    }
    if (name === "name") {
      if (path.startsWith("/api/admin/environments/")) return "development";
      if (path.startsWith("/api/admin/strategies/")) return "peer-strategy";
      if (path.startsWith("/api/admin/tag-types/")) return "simple";
      if (path.startsWith("/api/admin/api-tokens/")) return "peer-client";
      return "peer-flag";
    }
    // An invite link's secret, which Unleash's paths carry (Vexil's take its id too: D-29).
    if (name === "token" && path.includes("invite")) return ids.invite;
    return byName[name] ?? "peer-nothing";
  });
}

/** Reads first, then creations and changes, deletions last, so both servers lose entities at the same step. */
export function replayOrder(a: Operation, b: Operation): number {
  const rank = (m: string) => ({ GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 })[m] ?? 4;
  return rank(a.method) - rank(b.method);
}
