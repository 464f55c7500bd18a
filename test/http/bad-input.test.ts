import { createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardOnRequest } from "../../src/http/guard.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/builders.ts";
import { login, withSession } from "../helpers/session.ts";

/*
 * Issue 12 item 7: bad input is a 400 with the spec's error body (REST) or a typed GraphQL
 * error, never a 500 and never a stack trace. Checked over a real socket, where an escaped
 * error would reach the HTTP adapter's plain-text stack answer.
 */
let t: ListeningTestApp;

beforeAll(async () => {
  t = await createListeningTestApp();
  await createUser(t, "nora", "Editor");
});
afterAll(() => t?.close());

async function http(path: string, init: RequestInit = {}) {
  const res = await fetch(`${t.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type") ?? "", text };
}

const json = (token: string | null = ADMIN_TOKEN) => ({
  "content-type": "application/json",
  ...(token ? { authorization: token } : {}),
});

function expectRestError(
  answer: { status: number; type: string; text: string },
  status: number,
  name: string,
) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.type).toMatch(/^application\/json/);
  expect(answer.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  expect(JSON.parse(answer.text)).toMatchObject({
    id: expect.any(String),
    name,
    message: expect.any(String),
  });
}

describe("NUL in any text", () => {
  it("login, unauthenticated: 400 ValidationError, not a Prisma stack trace", async () => {
    const answer = await http("/auth/simple/login", {
      method: "POST",
      headers: json(null),
      body: JSON.stringify({ username: "no\u0000ra", password: "x" }),
    });
    expectRestError(answer, 400, "ValidationError");
    expect(JSON.parse(answer.text).details).toEqual([{ message: expect.any(String), path: "username" }]);
  });

  it("REST path parameter, query parameter and body field: 400 ValidationError", async () => {
    expectRestError(
      await http("/api/admin/projects/default/features/a%00b", { headers: json() }),
      400,
      "ValidationError",
    );
    expectRestError(
      await http("/api/admin/search/events?query=a%00b", { headers: json() }),
      400,
      "ValidationError",
    );
    expectRestError(
      await http("/api/admin/projects/default/features", {
        method: "POST",
        headers: json(),
        body: JSON.stringify({ name: "nul-flag", description: "a\u0000b" }),
      }),
      400,
      "ValidationError",
    );
    expect(await t.database.prisma.feature.count({ where: { name: "nul-flag" } })).toBe(0);
  });

  it("GraphQL literal and variable: 400 VALIDATION naming the variable's field", async () => {
    const literal = await http("/graphql", {
      method: "POST",
      headers: json(),
      body: JSON.stringify({ query: '{ feature(name: "a\\u0000b") { name } }' }),
    });
    expect(literal.status).toBe(400);
    expect(JSON.parse(literal.text).errors[0].extensions.code).toBe("VALIDATION");
    const variable = await http("/graphql", {
      method: "POST",
      headers: json(),
      body: JSON.stringify({
        query:
          'mutation($input: CreateFeatureInput!) { createFeature(project: "default", input: $input) { name } }',
        variables: { input: { name: "nul-flag", description: "a\u0000b" } },
      }),
    });
    expect(variable.status).toBe(400);
    const error = JSON.parse(variable.text).errors[0];
    expect(error.extensions.code).toBe("VALIDATION");
    expect(error.message).toMatch(/"input\.description" contains the NUL character/);
  });
});

describe("what a JSON body's text may hide", () => {
  const postFlag = (body: string) =>
    http("/api/admin/projects/default/features", { method: "POST", headers: json(), body });
  /** `levels` arrays, one in the other; inside the body object they make `levels + 1`. */
  const nested = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;

  it("a body nested 33 levels is refused (400); brackets inside strings neither add nor hide levels", async () => {
    const deep = await postFlag(`{"name":"deep-flag","description":"x","x":${nested(32)}}`);
    expectRestError(deep, 400, "ValidationError");
    expect(JSON.parse(deep.text).message).toMatch(/nested deeper than 32/);
    // Closing brackets in a string must not cancel the real nesting after them.
    const hidden = await postFlag(`{"name":"deep-flag","description":"]]]]]]]]","x":${nested(32)}}`);
    expectRestError(hidden, 400, "ValidationError");
    // Opening brackets in a string are text, not nesting: 32 levels with them pass the check.
    const shallow = await postFlag(
      `{"name":"shallow-flag","description":"${"[{".repeat(40)}","x":${nested(31)}}`,
    );
    expect(shallow.status, shallow.text).toBe(201);
    expect(await t.database.prisma.feature.count({ where: { name: "deep-flag" } })).toBe(0);
  });

  it("an escaped NUL or lone surrogate anywhere is refused; the text \\u0000 (an escaped backslash) is not NUL", async () => {
    for (const escaped of ["\\u0000", "\\uD800", "\\udfff"]) {
      const answer = await postFlag(`{"name":"escape-flag","description":"a${escaped}b"}`);
      expectRestError(answer, 400, "ValidationError");
      expect(JSON.parse(answer.text).details).toEqual([{ message: expect.any(String), path: "description" }]);
    }
    const literal = await postFlag(`{"name":"literal-flag","description":"a\\\\u0000b \\ud83d\\ude00"}`);
    expect(literal.status, literal.text).toBe(201);
    const flag = await t.database.prisma.feature.findUniqueOrThrow({ where: { name: "literal-flag" } });
    expect(flag.description).toBe("a\\u0000b \u{1F600}");
  });
});

describe("out-of-range values", () => {
  it("a timestamp past year 9999 (valid in JS, refused by PostgreSQL): 400, not 500", async () => {
    const { session } = await login(t, "nora");
    const answer = await withSession(t, session, "POST", "/api/admin/user/tokens", {
      description: "far future",
      expiresAt: "+275760-09-12T23:59:59.948Z",
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ name: "ValidationError", message: expect.stringMatching(/9999/) });
  });
});

describe("malformed encodings", () => {
  it("malformed %-encoding in an /api/admin path: 400, not a URIError stack", async () => {
    for (const path of ["/api/admin/events/%ff", "/api/admin/projects/%E0%A4%A/features"]) {
      expectRestError(await http(path, { headers: json() }), 400, "ValidationError");
    }
  });

  it("a malformed session cookie is no cookie: 401, not a 500", async () => {
    const cookie = { cookie: "vexil-session=%E0%A4%A" };
    expectRestError(await http("/api/admin/projects", { headers: cookie }), 401, "AuthenticationRequired");
    const graphql = await http("/graphql?query=%7Bprojects%7Bid%7D%7D", { headers: cookie });
    expect(graphql.status).toBe(401);
    expect(JSON.parse(graphql.text).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    // Logging out with it ends nothing and fails nothing.
    expect((await http("/auth/logout", { method: "POST", headers: cookie })).status).toBe(200);
  });

  it("a well-formed session still works next to a malformed cookie of another name", async () => {
    const { session } = await login(t, "nora");
    const answer = await http("/api/admin/projects", {
      headers: { cookie: `other=%E0%A4%A; ${session.cookie}` },
    });
    expect(answer.status).toBe(200);
  });
});

describe("an unexpected error in a request hook", () => {
  it("is answered 500 with the spec's error body and logged, never as a plain-text stack", async () => {
    const lines: string[] = [];
    const logger = createLogger("error", (line) => lines.push(line));
    const yoga = createYoga({
      logging: false,
      plugins: [
        guardOnRequest(
          {
            onRequest() {
              throw new Error("boom at /secret/path.ts:12");
            },
          },
          logger,
        ),
      ],
    });
    const res = await yoga.fetch("http://vexil.test/api/admin/anything");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.any(String),
      name: "InternalError",
      message: "Unexpected error.",
      details: [{ message: "Unexpected error." }],
    });
    expect(lines.join("\n")).toContain("boom at /secret/path.ts:12");
  });
});
