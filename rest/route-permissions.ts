import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  valueFromASTUntyped,
} from "graphql";
import type { Context } from "../src/context.ts";
import {
  requireAuthenticated,
  requirePermission,
  requirePermissionSomewhere,
} from "../src/modules/access/check.logic.ts";
import type { PermissionCheck } from "../src/modules/access/permissions.logic.ts";
import { AuthenticationRequired } from "../src/shared/errors.ts";
import type { Route } from "./route.ts";

/**
 * A REST route declares its permission by the GraphQL root fields its document calls: each
 * root field declares `authScopes` (`authenticated` or `permission`), and the route needs
 * all of them. So a route can never be looser than the GraphQL it runs, and the permission
 * is written in one place.
 */
export type AuthScopeMap = { authenticated?: boolean; permission?: PermissionCheck };
export type DeclaredScopes = AuthScopeMap | ((...args: never[]) => unknown);

export type RootFieldUse = {
  operation: OperationDefinitionNode["operation"];
  name: string;
  field: GraphQLField<unknown, unknown> | undefined;
  node: FieldNode;
};

/** The root fields a document selects (on its one operation). */
export function rootFieldsOf(document: DocumentNode | string, schema: GraphQLSchema): RootFieldUse[] {
  const doc = typeof document === "string" ? parse(document) : document;
  const uses: RootFieldUse[] = [];
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(def.operation);
    for (const sel of def.selectionSet.selections) {
      if (sel.kind !== Kind.FIELD || sel.name.value.startsWith("__")) continue;
      uses.push({
        operation: def.operation,
        name: sel.name.value,
        field: root?.getFields()[sel.name.value],
        node: sel,
      });
    }
  }
  return uses;
}

/** The `authScopes` a root field declared, or undefined when it declared none. */
export function declaredScopes(
  field: GraphQLField<unknown, unknown> | undefined,
): DeclaredScopes | undefined {
  const options = (field?.extensions as { pothosOptions?: { authScopes?: DeclaredScopes } } | undefined)
    ?.pothosOptions;
  return options?.authScopes;
}

/** The permissions a route needs, derived from its document (for docs and tests). */
export function routeScopes(route: Route, schema: GraphQLSchema): (DeclaredScopes | undefined)[] {
  return rootFieldsOf(route.document, schema).map((use) => declaredScopes(use.field));
}

function checkScopeMap(ctx: Context, scopes: AuthScopeMap): void {
  const checks: (() => void)[] = [];
  if (scopes.authenticated) checks.push(() => requireAuthenticated(ctx));
  if (scopes.permission) {
    const permission = scopes.permission;
    checks.push(() => requirePermission(ctx, permission));
  }
  let firstError: unknown;
  for (const check of checks) {
    try {
      check();
      return;
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError) throw firstError;
}

/**
 * Checks, before the request body is validated, what can be checked without valid arguments:
 * a credential at all (401), every root field's static scopes (403), and for scopes computed
 * from arguments, that the caller holds the permission they name somewhere (403): so a caller
 * who may not do this anywhere learns nothing from validation errors (D-12). `variables` are
 * the route's, not yet validated; the full check, with the validated arguments, is GraphQL's.
 */
export function preAuthorize(
  document: DocumentNode,
  schema: GraphQLSchema,
  ctx: Context,
  variables: Record<string, unknown> = {},
): void {
  if (!ctx.principal) throw ctx.authProblem ?? new AuthenticationRequired();
  for (const use of rootFieldsOf(document, schema)) {
    const scopes = declaredScopes(use.field);
    if (scopes && typeof scopes === "object") checkScopeMap(ctx, scopes);
    if (typeof scopes === "function") {
      const check = permissionNamedBy(scopes, use.node, variables, ctx);
      if (check) requirePermissionSomewhere(ctx, check);
    }
  }
}

/**
 * The permission a computed scope asks for, given the raw arguments; undefined when it cannot
 * say (arguments it needs are missing or malformed, or it passes on `authenticated` alone).
 */
function permissionNamedBy(
  scopes: (...args: never[]) => unknown,
  node: FieldNode,
  variables: Record<string, unknown>,
  ctx: Context,
): PermissionCheck | undefined {
  const args = Object.fromEntries(
    (node.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value, variables)]),
  );
  let map: unknown;
  try {
    map = (scopes as (root: unknown, args: unknown, ctx: Context) => unknown)(undefined, args, ctx);
  } catch {
    return undefined;
  }
  if (!map || typeof map !== "object" || map instanceof Promise) return undefined;
  const { authenticated, permission } = map as AuthScopeMap;
  return authenticated ? undefined : permission;
}
