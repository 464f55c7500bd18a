/**
 * Why each difference peer-diff finds is kept. The first rule that matches a request wins; a
 * difference no rule matches is reported as `unexplained` (fix it, or add a rule with its reason).
 */
import type { Outcome } from "./compare.ts";
import type { Caller, Operation, Variant } from "./corpus.ts";

export type ReasonKind = "spec" | "security" | "deliberate" | "left" | "fixture" | "unexplained";
type Request = { operation: Operation; caller: Caller; variant: Variant };
type Rule = {
  method?: string;
  path?: RegExp;
  caller?: Caller[];
  variant?: Variant[];
  when?: (o: Outcome) => boolean;
  kind: ReasonKind;
  text: string;
};

/** Operations Vexil does not serve, with D-074's reasons. */
export const NOT_SERVED: Record<string, string> = {
  "POST /api/admin/feedback": "Unleash's in-app survey (D-074)",
  "PUT /api/admin/feedback/{id}": "Unleash's in-app survey (D-074)",
  "POST /api/admin/record-ui-error": "Unleash's UI reporting its crashes (D-074)",
  "POST /api/admin/splash/{id}": "splash screens of Unleash's UI (D-074)",
  "GET /api/admin/telemetry/settings": "phone-home; Vexil sends none (D-074)",
  "DELETE /api/admin/user-admin/scim-users": "SCIM is an Enterprise feature (D-074)",
  "POST /edge/issue-token": "a second credential able to mint tokens (D-074, D-075)",
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
    when: (o) => same(o) && o.vexil.status >= 400 && only("onlyVexil", /^details(\[\]\.path)?$/)(o),
    kind: "deliberate",
    text: "D-069: Vexil's `details` name the field at fault (`path`)",
  },
  {
    when: (o) =>
      same(o) && o.vexil.status >= 400 && only("onlyUnleash", /^details\[\]\.(path|description)$/)(o),
    kind: "deliberate",
    text: "D-069/D-071: Vexil's `details` name the body field (Unleash: its schema path); the message says the same",
  },
];

/** Status differences with a recorded reason. */
const STATUS_RULES: Rule[] = [
  {
    caller: ["editor", "viewer"],
    variant: ["none"],
    when: (o) => o.vexil.status === 403 && o.unleash.status < 300,
    kind: "security",
    text: "D-080: a cookie-authenticated write without a JSON body needs the CSRF token (x-csrf-token); Unleash takes the cookie alone",
  },
  {
    caller: ["viewer", "editor"],
    when: (o) => o.vexil.status === 400 && o.unleash.status === 403,
    kind: "left",
    text: "Vexil checks a malformed body before the permission (the route maps the body to variables first); Unleash answers 403 first. Nothing is written either way",
  },
  {
    path: /^\/api\/(client|frontend)/,
    caller: ["admin"],
    when: (o) => o.unleash.status === 403,
    kind: "deliberate",
    text: "D-030: an admin token is accepted on the SDK endpoints (for the development environment) where Unleash 8.2 refuses it",
  },
  {
    path: /^\/api\/admin\/instance-admin\/statistics/,
    kind: "deliberate",
    text: "D-066: instance statistics are for admins only",
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

/** Response shapes: extra fields are harmless to readers; fields Unleash has that Vexil does not. */
const SHAPE_RULES: Rule[] = [
  {
    path: /api-tokens/,
    when: (o) =>
      same(o) &&
      o.onlyUnleash.every((k) => /(alias|secret|secure|createdAt|environment|expiresAt|project)$/.test(k)),
    kind: "security",
    text: "D-062: Vexil never keeps or shows a token's secret after creation (lists show `displayPrefix`); no legacy `alias`/`secure`",
  },
  {
    when: (o) => same(o) && o.vexil.status < 400 && o.onlyUnleash.length === 0,
    kind: "deliberate",
    text: "Vexil answers more fields than Unleash (listed); every field Unleash answers is there",
  },
  {
    when: (o) =>
      same(o) && o.vexil.status < 400 && o.onlyUnleash.every((k) => /(^|\.)(color|tags\[\]\.color)$/.test(k)),
    kind: "left",
    text: "a flag's tags carry no `color` (Unleash 8.2 copies the tag type's colour into each tag)",
  },
  {
    when: (o) => same(o) && o.vexil.status < 400,
    kind: "left",
    text: "fields Unleash answers that Vexil does not (listed): UI-only, Enterprise or statistics Vexil does not keep; scripts reading them get undefined",
  },
];

/** Found by the first run and not yet looked into one by one: listed so the next round starts here. */
const NOT_REVIEWED: Rule[] = [
  {
    when: (o) => o.statusEqual && o.nameEqual === false,
    kind: "left",
    text: "same status, another error name or error keys (e.g. no `permissions` list in this 403): not yet reviewed",
  },
  {
    when: (o) => !o.statusEqual,
    kind: "left",
    text: "another status for the same request: not yet reviewed (see the list of the guide's next steps)",
  },
];

const RULES: Rule[] = [...SPEC_ERRORS, ...STATUS_RULES, ...SHAPE_RULES, ...NOT_REVIEWED];

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
