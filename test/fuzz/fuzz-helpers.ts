import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";
import { bootstrap } from "../../src/bootstrap.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/*
 * Shared pieces of the fuzz suite (issue 12, "Proof"): value generators biased towards what
 * breaks servers (NUL, broken %-encoding, lone surrogates, long text, wrong types, names that
 * exist), the fixed seed, and the assertions every answer must pass.
 */

/** One seed per run, printed by fast-check with the counterexample on failure; FUZZ_SEED overrides. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 12_012);

/** Cases per file per run (both files together make the 10,000); FUZZ_RUNS overrides. */
export const FUZZ_CASES_PER_FILE = Number(process.env.FUZZ_RUNS ?? 5_200);

/** Names that exist in the seeded app, so generated calls get past "not found" sometimes. */
export const KNOWN_NAMES = [
  "default",
  "development",
  "production",
  "fuzz-flag",
  "fuzz-segment",
  "fuzz-field",
  "simple",
  "flexibleRollout",
  "admin",
  "1",
  "*",
];

/**
 * Any code point but the surrogate halves, as fast-check's `unit: "binary"`, which first maps
 * all 1.1 million of them back to indexes: 0.8 s of CPU in every worker that builds it.
 */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Text that tends to break things, plus ordinary and existing names. */
export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...KNOWN_NAMES) },
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((s) => `${s}\u0000${s}`) },
  { weight: 1, arbitrary: fc.constantFrom("%", "%ff", "%E0%A4%A", "\ud800", "'; --", "\\", "../..", "") },
  { weight: 1, arbitrary: fc.integer({ min: 3000, max: 9000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom("IS:default", "IS_ANY_OF:a,b", "IS:", "2026-01-01", "true", "-1") },
);

/** Any JSON value, shallow. */
export const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 4 }) },
);

/** A path segment: usually an encoded value, sometimes a raw broken one. */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: text.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "x"))) },
  { weight: 1, arbitrary: fc.constantFrom("%ff", "%E0%A4%A", "%00", "%", "a%2Fb", "..") },
);

/** The credential of one case: mostly the admin token (to get deep), else weaker or none. */
export const credential = fc.oneof(
  { weight: 14, arbitrary: fc.constant("admin" as const) },
  { weight: 3, arbitrary: fc.constant("viewer" as const) },
  { weight: 2, arbitrary: fc.constantFrom("none" as const, "garbage" as const) },
);

export type FuzzAnswer = { status: number; contentType: string; text: string; request: string };

const STACK = /\n\s+at |node_modules\/|\.ts:\d+:\d+/;

/*
 * Each check below calls `expect` only when its condition fails, where `expect` fails with its
 * message: the same assertions, without vitest's assertion machinery on the thousands of
 * answers that pass (3 % of a fuzz file's CPU profile).
 */

/** A REST (or /auth) answer: never 5xx, errors in the spec's body, no stack trace. */
export function checkRestAnswer(answer: FuzzAnswer): void {
  if (answer.status >= 500) {
    expect(answer.status, `${answer.request} -> ${answer.text.slice(0, 500)}`).toBeLessThan(500);
  }
  if (STACK.test(answer.text)) expect(answer.text, answer.request).not.toMatch(STACK);
  if (answer.status < 400) return;
  if (!/^application\/json/.test(answer.contentType)) {
    expect(answer.contentType, `${answer.request}: ${answer.text.slice(0, 200)}`).toMatch(
      /^application\/json/,
    );
  }
  const body = JSON.parse(answer.text);
  if (!(typeof body?.id === "string" && typeof body.name === "string" && typeof body.message === "string")) {
    expect(body, `${answer.request}: ${answer.text.slice(0, 300)}`).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      message: expect.any(String),
    });
  }
}

/** A GraphQL answer: never 5xx, every error typed (extensions.code) and not INTERNAL. */
export function checkGraphQLAnswer(answer: FuzzAnswer): void {
  if (answer.status >= 500) {
    expect(answer.status, `${answer.request} -> ${answer.text.slice(0, 500)}`).toBeLessThan(500);
  }
  if (STACK.test(answer.text)) expect(answer.text, answer.request).not.toMatch(STACK);
  const body = JSON.parse(answer.text) as { errors?: { message: string; extensions?: { code?: unknown } }[] };
  for (const error of body.errors ?? []) {
    const code = error.extensions?.code;
    if (typeof code === "string" && code !== "INTERNAL") continue;
    const where = `${answer.request} -> ${error.message}`;
    expect(typeof error.extensions?.code, where).toBe("string");
    expect(error.extensions?.code, where).not.toBe("INTERNAL");
  }
}

export type Credential = "admin" | "viewer" | "none" | "garbage";

/** The app under fuzz: `send` makes one request with a generated credential and reads the answer. */
type FuzzApp = {
  /**
   * Sends `init` to `url` (JSON) as `who`; afterwards puts the admin token back when the case
   * deleted it, and ends maintenance mode when `mayStartMaintenance` (the case could start it).
   */
  send(
    url: string,
    init: { method: string; body?: string },
    who: Credential,
    request: string,
    mayStartMaintenance: boolean,
  ): Promise<FuzzAnswer>;
  close(): Promise<void>;
};

/**
 * The fuzz app of a test file, started before its tests and closed after them; returns its
 * `send`.
 */
export function fuzzAppOfThisFile(): FuzzApp["send"] {
  let app: FuzzApp | undefined;
  beforeAll(async () => {
    app = await startFuzzApp();
  });
  afterAll(() => app?.close());
  return (...args) => {
    if (!app) throw new Error("the fuzz app has not started");
    return app.send(...args);
  };
}

/** A fresh app with the fuzz targets and a Viewer with a personal access token. */
async function startFuzzApp(): Promise<FuzzApp> {
  const t = await createTestApp();
  const viewerToken = (await userWithPat(t, "fuzz-viewer", "Viewer")).token;
  await seedFuzzTargets(t);
  const tokens: Record<Credential, string | null> = {
    admin: ADMIN_TOKEN,
    viewer: viewerToken,
    none: null,
    garbage: "*:*.garbage",
  };
  return {
    close: () => t.close(),
    async send(url, init, who, request, mayStartMaintenance) {
      const authorization = tokens[who];
      const res = await t.app.fetch(url, {
        ...init,
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      });
      const answer = {
        status: res.status,
        contentType: res.headers.get("content-type") ?? "",
        text: await res.text(),
        request,
      };
      if (who === "admin" && answer.status === 401) await restoreAdminToken(t);
      if (mayStartMaintenance) await endMaintenanceMode(t);
      return answer;
    },
  };
}

/**
 * Fuzzed admin calls may delete the admin token (its id is a small integer): bootstrap again
 * puts INIT_ADMIN_API_TOKENS back, as a restart would, so later cases keep their reach.
 */
async function restoreAdminToken(t: TestApp): Promise<void> {
  const res = await t.app.fetch("http://vexil.test/api/admin/projects", {
    headers: { authorization: ADMIN_TOKEN },
  });
  await res.text();
  if (res.status === 401) await bootstrap(t.database.prisma, t.config, createLogger("silent"));
}

/** A fuzzed call may switch maintenance mode on, which refuses every later write (503): off again. */
async function endMaintenanceMode(t: TestApp): Promise<void> {
  const res = await t.gql("mutation { setMaintenanceMode(enabled: false) }");
  if (res.errors) throw new Error(JSON.stringify(res.errors));
}

/** Flags, a segment and a context field the generated names can hit. */
async function seedFuzzTargets(t: TestApp): Promise<void> {
  const ok = (res: { status: number; body: unknown }) => {
    if (res.status >= 300) throw new Error(JSON.stringify(res.body));
  };
  ok(await t.rest("POST", "/api/admin/projects/default/features", { name: "fuzz-flag" }));
  ok(await t.rest("POST", "/api/admin/context", { name: "fuzz-field" }));
  ok(await t.rest("POST", "/api/admin/segments", { name: "fuzz-segment", constraints: [] }));
}
