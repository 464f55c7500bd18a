import fc from "fast-check";
import { afterAll, describe, it } from "vitest";
import type { Route } from "../../rest/route.ts";
import { allRoutes } from "../../rest/routes/index.ts";
import {
  checkRestAnswer,
  credential,
  FUZZ_CASES_PER_FILE,
  FUZZ_SEED,
  fuzzAppOfThisFile,
  jsonValue,
  pathSegment,
  text,
} from "./fuzz-helpers.ts";

/*
 * Fuzzes every REST route (the route table is data: routes added later are fuzzed too) and the
 * /auth endpoints: generated path parameters, query strings and bodies, with the admin token,
 * a Viewer's PAT, none or garbage. Every answer must be < 500, every error in the spec's body
 * {id, name, message}, never a stack trace.
 */
const sendAs = fuzzAppOfThisFile();

/** The /auth endpoints are not in the route table (they set cookies); fuzz them alike. */
const authRoutes = [
  { method: "POST", path: "/auth/simple/login", bodyKeys: ["username", "password"], queryKeys: [] },
  { method: "POST", path: "/auth/logout", bodyKeys: [], queryKeys: [] },
  { method: "GET", path: "/auth/reset/validate", bodyKeys: [], queryKeys: ["token"] },
  { method: "POST", path: "/auth/reset/password", bodyKeys: ["token", "password"], queryKeys: [] },
  { method: "POST", path: "/auth/reset/password-email", bodyKeys: ["email"], queryKeys: [] },
  { method: "POST", path: "/auth/reset/validate-password", bodyKeys: ["password"], queryKeys: [] },
  { method: "GET", path: "/invite/:token/validate", bodyKeys: [], queryKeys: [] },
  {
    method: "POST",
    path: "/invite/:token/signup",
    bodyKeys: ["email", "name", "password", "username"],
    queryKeys: [],
  },
];

type Target = {
  method: string;
  path: string;
  bodyKeys: string[];
  queryKeys: string[];
  body?: fc.Arbitrary<unknown>;
};

function targetOf(route: Route): Target {
  const body = route.schemas?.body as { shape?: Record<string, unknown> } | undefined;
  return {
    method: route.method,
    path: route.path,
    bodyKeys: Object.keys(body?.shape ?? {}),
    queryKeys: Object.keys(route.schemas?.query?.shape ?? {}),
    body: route.schemas?.body ? fromZod(route.schemas.body) : undefined,
  };
}

type ZodDef = {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  innerType?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
  options?: { _zod: { def: ZodDef } }[];
  valueType?: { _zod: { def: ZodDef } };
  entries?: Record<string, string>;
};

/**
 * A body shaped like the route's declared (OpenAPI) schema: the right keys with values of the
 * right kind, drawn from the fuzz generators, so most cases get past validation into the
 * services. Unknown kinds fall back to any JSON value.
 */
function fromZod(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as { _zod?: { def: ZodDef } })?._zod?.def;
  if (!def || depth > 4) return jsonValue;
  const inner = (s: { _zod: { def: ZodDef } } | undefined) => fromZod(s, depth + 1);
  switch (def.type) {
    case "optional":
    case "default":
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case "nullable":
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case "string":
      return text;
    case "number":
      return fc.oneof(fc.integer({ min: -2, max: 1500 }), fc.double(), fc.constant(1e20));
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...Object.values(def.entries ?? { x: "x" })) },
        { weight: 1, arbitrary: text },
      );
    case "array":
      return fc.array(inner(def.element), { maxLength: 3 });
    case "record":
      return fc.dictionary(text, inner(def.valueType), { maxKeys: 3 });
    case "union":
      return fc.oneof(...(def.options ?? []).map((o) => inner(o)));
    case "object":
      return fc.record(Object.fromEntries(Object.entries(def.shape ?? {}).map(([k, v]) => [k, inner(v)])), {
        requiredKeys: [],
      });
    default:
      return jsonValue;
  }
}

const statusCounts = new Map<number, number>();
afterAll(() => {
  if (process.env.FUZZ_STATS) console.log("REST fuzz statuses", Object.fromEntries(statusCounts));
});

const targets: Target[] = [...allRoutes.map(targetOf), ...authRoutes];
const runsPerTarget = Math.ceil(FUZZ_CASES_PER_FILE / targets.length);

/** A request for `target`: its parameters filled, a query string and a body, mostly well-shaped. */
function requestArbitrary(target: Target): fc.Arbitrary<FuzzRequest> {
  const params = target.path.match(/[:*]\w+/g) ?? [];
  const shapedBody = fc.dictionary(
    target.bodyKeys.length ? fc.constantFrom(...target.bodyKeys) : fc.string({ maxLength: 8 }),
    jsonValue,
    { maxKeys: 6 },
  );
  return fc.record({
    segments: fc.tuple(...params.map(() => pathSegment)),
    query: fc.array(
      fc.tuple(
        target.queryKeys.length ? fc.constantFrom(...target.queryKeys) : fc.string({ maxLength: 8 }),
        text,
      ),
      { maxLength: 4 },
    ),
    body: fc.oneof(
      { weight: 8, arbitrary: (target.body ?? shapedBody).map((b) => JSON.stringify(b) ?? "") },
      { weight: 2, arbitrary: shapedBody.map((b) => JSON.stringify(b)) },
      { weight: 1, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? "") },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    ),
    who: credential,
  });
}

type FuzzRequest = {
  segments: string[];
  query: [string, string][];
  body: string;
  who: "admin" | "viewer" | "none" | "garbage";
};

async function send(target: Target, input: FuzzRequest) {
  let index = 0;
  // A "." or ".." segment under /invite/ resolves out of it (the URL is normalised before any
  // route sees it), to a path that is no REST target.
  const outside = !target.path.startsWith("/api/");
  const segment = (s: string | undefined) => (s === undefined || (outside && /^\.\.?$/.test(s)) ? "x" : s);
  const path = target.path.replace(/[:*]\w+/g, () => segment(input.segments[index++]));
  const query = input.query
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "x"))}`)
    .join("&");
  const url = `http://vexil.test${path}${query ? `?${query}` : ""}`;
  const hasBody = target.method !== "GET" && target.method !== "DELETE";
  const answer = await sendAs(
    url,
    { method: target.method, body: hasBody ? input.body : undefined },
    input.who,
    `${target.method} ${url} (${input.who}) ${hasBody ? input.body.slice(0, 300) : ""}`,
    target.path === "/api/admin/maintenance",
  );
  if (process.env.FUZZ_STATS) statusCounts.set(answer.status, (statusCounts.get(answer.status) ?? 0) + 1);
  return answer;
}

describe(`REST fuzz (${targets.length} routes x ${runsPerTarget} cases, seed ${FUZZ_SEED})`, () => {
  for (const target of targets) {
    it(`${target.method} ${target.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(target), async (input) => {
          checkRestAnswer(await send(target, input));
        }),
        { numRuns: runsPerTarget, seed: FUZZ_SEED, endOnFailure: true },
      );
    });
  }
});
