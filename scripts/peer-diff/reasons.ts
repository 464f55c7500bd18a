/**
 * Why each difference peer-diff finds is kept. The first rule that matches a request wins; a
 * difference no rule matches is reported as `unexplained` (fix it, or add a rule with its reason).
 */
import type { Outcome } from "./compare.ts";
import type { Caller, Operation, Variant } from "./corpus.ts";
import { type Rule, SHAPE_BY_OPERATION, STATUS_BY_OPERATION } from "./reasons-by-operation.ts";

export type ReasonKind = "spec" | "security" | "deliberate" | "left" | "fixture" | "unexplained";
type Request = { operation: Operation; caller: Caller; variant: Variant };

/** Operations Vexil does not serve, with D-20's reasons. */
export const NOT_SERVED: Record<string, string> = {
  "POST /api/admin/feedback": "Unleash's in-app survey (D-20)",
  "PUT /api/admin/feedback/{id}": "Unleash's in-app survey (D-20)",
  "POST /api/admin/record-ui-error": "Unleash's UI reporting its crashes (D-20)",
  "POST /api/admin/splash/{id}": "splash screens of Unleash's UI (D-20)",
  "GET /api/admin/telemetry/settings": "phone-home; Vexil sends none (D-20)",
  "DELETE /api/admin/user-admin/scim-users": "SCIM is an Enterprise feature (D-20)",
  "POST /edge/issue-token": "a second credential able to mint tokens (D-20, D-33)",
};

const only = (side: "onlyVexil" | "onlyUnleash", pattern: RegExp) => (o: Outcome) =>
  o[side].length > 0 && o[side].every((k) => pattern.test(k));
const same = (o: Outcome) => o.statusEqual;
const names = (vexil: string, unleash: string[]) => (o: Outcome) =>
  same(o) && o.vexil.name === vexil && unleash.includes(o.unleash.name ?? "") && o.keysEqual !== false;
const SDK = /^\/(api\/client|api\/frontend|edge)\b/;

/** The error body of spec 7: `{id, name, message}`, the names of its table; Unleash's extra keys and names differ. */
const SPEC_ERRORS: Rule[] = [
  {
    when: (o) =>
      same(o) && o.vexil.status === 401 && only("onlyUnleash", /^(defaultHidden|path|type|options.*)$/)(o),
    kind: "spec",
    text: "spec 7 fixes the error body (`{id, name, message}`); Unleash's 401 adds its login hints (`path`, `type`, `defaultHidden`)",
  },
  {
    when: names("ValidationError", ["BadDataError", "OwaspValidationError", "ValidationError"]),
    kind: "spec",
    text: "spec 7: a body that does not match the schema is 400 `ValidationError` (Unleash: `BadDataError`, `OwaspValidationError`)",
  },
  {
    when: names("NoAccessError", ["PermissionError"]),
    kind: "spec",
    text: "spec 7: insufficient permission is 403 `NoAccessError` (Unleash: `PermissionError`)",
  },
  {
    path: SDK,
    when: (o) => same(o) && o.vexil.status >= 400 && o.unleash.name === "",
    kind: "spec",
    text: "spec 7's error body on every surface; Unleash's SDK endpoints answer errors without a body",
  },
  {
    when: (o) => same(o) && o.vexil.status >= 400 && !o.unleash.name,
    kind: "spec",
    text: "spec 7: every error has the body `{id, name, message}`; Unleash answers this one without a body or a `name`",
  },
  {
    when: names("NoAccessError", ["ForbiddenError"]),
    kind: "spec",
    text: "spec 5 and 7: a refusal is 403 `NoAccessError` (Unleash: `ForbiddenError`)",
  },
  {
    when: (o) => same(o) && o.vexil.status >= 400 && only("onlyVexil", /^details(\[\]\.path)?$/)(o),
    kind: "deliberate",
    text: "D-19: Vexil's `details` name the field at fault (`path`)",
  },
  {
    when: (o) =>
      same(o) && o.vexil.status >= 400 && only("onlyUnleash", /^details\[\]\.(path|description)$/)(o),
    kind: "deliberate",
    text: "D-19: Vexil's `details` name the body field (Unleash: its schema path); the message says the same",
  },
];

/** Status differences with a recorded reason. */
const STATUS_RULES: Rule[] = [
  {
    caller: ["editor", "viewer"],
    variant: ["none"],
    when: (o) => o.vexil.status === 403 && o.unleash.status < 300,
    kind: "security",
    text: "D-13: a cookie-authenticated write without a JSON body needs the CSRF token (x-csrf-token); Unleash takes the cookie alone",
  },
  {
    caller: ["editor"],
    when: (o) => o.vexil.status === 400 && o.unleash.status === 403,
    kind: "deliberate",
    text: "D-12: Vexil's Editor holds this permission (every one but ADMIN), so it is told what its body lacks; Unleash 8.2's Editor lacks it",
  },
  {
    path: /^\/api\/(client|frontend)/,
    caller: ["admin"],
    when: (o) => o.unleash.status === 403,
    kind: "deliberate",
    text: "D-33: an admin token is accepted on the SDK endpoints (for the development environment) where Unleash 8.2 refuses it",
  },
  {
    path: /^\/api\/admin\/instance-admin\/statistics/,
    kind: "deliberate",
    text: "D-30: instance statistics are for admins only",
  },
  {
    when: (o) => o.unleash.status === 429,
    kind: "fixture",
    text: "Unleash's own rate limit (per minute) on this endpoint was reached by the replay; the same request alone is answered normally",
  },
  {
    when: (o) => o.unleash.status === 415,
    kind: "deliberate",
    text: "Vexil accepts a POST without a body where none is needed; Unleash asks for a JSON content type",
  },
  {
    when: (o) => o.unleash.status === 500,
    kind: "deliberate",
    text: "Unleash fails (500) on this request; Vexil answers it",
  },
];

/** Response shapes: extra fields are harmless to readers. */
const SHAPE_RULES: Rule[] = [
  {
    path: /api-tokens/,
    when: (o) =>
      same(o) &&
      o.onlyUnleash.every((k) => /(alias|secret|secure|createdAt|environment|expiresAt|project)$/.test(k)),
    kind: "security",
    text: "D-29: Vexil never keeps or shows a token's secret after creation (lists show `displayPrefix`); no legacy `alias`/`secure`",
  },
  {
    when: (o) => same(o) && o.vexil.status < 400 && o.onlyUnleash.length === 0,
    kind: "deliberate",
    text: "D-20: Vexil answers more fields than Unleash (listed); every field Unleash answers is there",
  },
];

const RULES: Rule[] = [
  ...SPEC_ERRORS,
  ...STATUS_RULES,
  ...STATUS_BY_OPERATION,
  ...SHAPE_RULES,
  // shape rules speak of answers with the same status
  ...SHAPE_BY_OPERATION.map((r) => ({ ...r, when: (o: Outcome) => o.statusEqual && (r.when?.(o) ?? true) })),
];

export function reasonFor(result: { request: Request; outcome: Outcome }): {
  kind: ReasonKind;
  text: string;
} {
  const { request, outcome } = result;
  for (const rule of RULES) {
    if (rule.method && rule.method !== request.operation.method) continue;
    if (rule.path && !rule.path.test(request.operation.path)) continue;
    if (rule.caller && !rule.caller.includes(request.caller)) continue;
    if (rule.variant && !rule.variant.includes(request.variant)) continue;
    if (rule.when && !rule.when(outcome)) continue;
    return { kind: rule.kind, text: rule.text };
  }
  return { kind: "unexplained", text: "no reason recorded yet" };
}
