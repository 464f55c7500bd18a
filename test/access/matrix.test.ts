import {
  type FieldNode,
  getArgumentValues,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  OperationTypeNode,
  parse,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Route } from "../../rest/route.ts";
import { type AuthScopeMap, declaredScopes, rootFieldsOf } from "../../rest/route-permissions.ts";
import { allRoutes } from "../../rest/routes/index.ts";
import { PERMISSIONS } from "../../src/modules/access/permissions.logic.ts";
import { schema } from "../../src/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { allowed, type Caller } from "./expectations.ts";
import { type Principals, seedPrincipals } from "./principals.ts";
import { fieldCall, routeCall, scopesFor } from "./walk.ts";

let t: TestApp;
let callers: Principals;
beforeAll(async () => {
  t = await createTestApp();
  callers = await seedPrincipals(t);
}, 120_000);
afterAll(() => t.close());

const KNOWN_PERMISSIONS = new Set<string>(Object.values(PERMISSIONS));
const rootFields = (
  [OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION] as const
).flatMap((operation) =>
  Object.values(schema.getRootType(operation)?.getFields() ?? {}).map((field) => ({ operation, field })),
);

/** Why a declared scope is not acceptable, or null. */
function scopeProblem(scopes: ReturnType<typeof declaredScopes>): string | null {
  if (!scopes) return "declares no authScopes";
  if (typeof scopes === "function") return null;
  if (scopes.authenticated === true) return null;
  if (scopes.permission && KNOWN_PERMISSIONS.has(scopes.permission.permission)) return null;
  return `declares unknown scopes ${JSON.stringify(scopes)}`;
}

describe("every entry point declares its permission", () => {
  it("every root field of Query, Mutation and Subscription declares authScopes", () => {
    const problems = rootFields
      .map(({ operation, field }) => [`${operation}.${field.name}`, scopeProblem(declaredScopes(field))])
      .filter(([, problem]) => problem);
    expect(problems).toEqual([]);
    expect(rootFields.length).toBeGreaterThan(20);
  });

  it("every REST route runs root fields that declare authScopes (its declared permission)", () => {
    const problems: string[] = [];
    for (const route of allRoutes) {
      const uses = rootFieldsOf(route.document, schema);
      if (uses.length === 0) problems.push(`${route.method} ${route.path}: calls no root field`);
      for (const use of uses) {
        const problem = use.field ? scopeProblem(declaredScopes(use.field)) : "is not in the schema";
        if (problem) problems.push(`${route.method} ${route.path}: ${use.operation}.${use.name} ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

const CALLERS: Caller[] = ["viewer", "member", "editor", "admin"];
type Outcome = "401" | "403" | "passed";

function graphqlOutcome(res: { errors?: { extensions?: Record<string, unknown> }[] }): Outcome {
  const ext = res.errors?.[0]?.extensions;
  if (ext?.code === "UNAUTHENTICATED") return "401";
  if (ext?.code === "FORBIDDEN" && Array.isArray(ext.permissions)) return "403";
  return "passed";
}

function restOutcome(res: {
  status: number;
  body?: { name?: string; permissions?: unknown };
}): Outcome | string {
  if (res.status === 401)
    return res.body?.name === "AuthenticationRequired" ? "401" : `401 ${res.body?.name}`;
  if (res.status === 403 && Array.isArray(res.body?.permissions)) {
    return res.body?.name === "NoAccessError" ? "403" : `403 ${res.body?.name}`;
  }
  return "passed";
}

function expected(caller: Caller | "none" | "bad", scopes: AuthScopeMap[]): Outcome {
  if (caller === "none" || caller === "bad") return "401";
  return scopes.every((s) => allowed(caller, s)) ? "passed" : "403";
}

function tokenOf(caller: Caller | "none" | "bad"): string | null {
  if (caller === "none") return null;
  if (caller === "bad") return "user:not-a-token";
  return callers[caller].token;
}

/** The scopes a route's root fields evaluate to, with the arguments its request maps to. */
function routeScopes(route: Route, variables: Record<string, unknown>): AuthScopeMap[] {
  const doc = parse(route.document);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], variables);
  const vars = coerced.coerced ?? {};
  return rootFieldsOf(doc, schema).map((use) => {
    const node = op.selectionSet.selections.find(
      (s) => s.kind === Kind.FIELD && s.name.value === use.name,
    ) as FieldNode;
    const args = use.field ? getArgumentValues(use.field, node, vars) : {};
    return scopesFor(declaredScopes(use.field), args) as AuthScopeMap;
  });
}

/**
 * Each root field's call and the scopes it evaluates to, made once for every caller (they do not
 * depend on the caller). Subscriptions are called over graphql-ws: see ws.test.ts.
 */
const fieldCases = rootFields.flatMap(({ operation, field }) => {
  if (operation === "subscription") return [];
  const call = fieldCall(operation, field);
  return [
    { operation, field, call, scopes: [scopesFor(declaredScopes(field), call.variables) as AuthScopeMap] },
  ];
});

/** GraphQL root fields called as `caller`: the ones whose outcome is not the expected one. */
async function graphqlMismatches(caller: Caller | "none" | "bad"): Promise<string[]> {
  const mismatches: string[] = [];
  for (const { operation, field, call, scopes } of fieldCases) {
    const res = await t.gql(call.document, call.variables, tokenOf(caller));
    const got = graphqlOutcome(res);
    const want = expected(caller, scopes);
    if (got !== want)
      mismatches.push(
        `${caller}: ${operation}.${field.name}: got ${got}, want ${want} ${JSON.stringify(res.errors?.[0])}`,
      );
  }
  return mismatches;
}

/** Each REST route's request and the scopes its root fields evaluate to, made once for every caller. */
const routeCases = allRoutes.map((route) => {
  const call = routeCall(route);
  let variables: Record<string, unknown> = {};
  try {
    variables =
      route.variables?.({
        params: paramsOf(route, call.path.split("?")[0] as string),
        query: call.query,
        body: call.body,
      }) ?? {};
  } catch {
    // A route that cannot map the dummy request must still answer 401/403 first.
  }
  return { route, call, scopes: routeScopes(route, variables) };
});

/** REST routes called as `caller`: the ones whose outcome is not the expected one. */
async function restMismatches(caller: Caller | "none" | "bad"): Promise<string[]> {
  const mismatches: string[] = [];
  for (const { route, call, scopes } of routeCases) {
    const res = await t.rest(route.method, call.path, call.body, tokenOf(caller));
    const got = restOutcome(res);
    const want = expected(caller, scopes);
    if (got !== want)
      mismatches.push(
        `${caller}: ${route.method} ${route.path}: got ${got} (${res.status}), want ${want} ${JSON.stringify(res.body)}`,
      );
  }
  return mismatches;
}

describe("the matrix: every root field and REST route × caller ⇒ expected status", () => {
  // One test, callers in this order: the calls a caller is allowed really execute (with dummy
  // arguments), so the callers with the fewest rights go first, admins last, while the dummy
  // flags and projects the expectations assume are still absent.
  it("GraphQL root fields and REST routes as none, bad, viewer, member, editor, then admin", async () => {
    const mismatches: string[] = [];
    for (const caller of ["none", "bad", ...CALLERS] as const) {
      mismatches.push(...(await graphqlMismatches(caller)), ...(await restMismatches(caller)));
    }
    expect(mismatches).toEqual([]);
  }, 600_000);
});

function paramsOf(route: Route, path: string): Record<string, string> {
  const names = route.path.split("/");
  const values = path.split("/");
  return Object.fromEntries(
    names.flatMap((n, i) => (n.startsWith(":") ? [[n.slice(1), values[i] ?? ""]] : [])),
  );
}
