import {
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import type { Context } from "../src/context.ts";
import { requireAuthenticated, requirePermission } from "../src/modules/access/check.logic.ts";
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
      uses.push({ operation: def.operation, name: sel.name.value, field: root?.getFields()[sel.name.value] });
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
 * Checks, before the request body is mapped, what can be checked without the operation's
 * arguments: a credential at all (401), and every root field's static scopes (403). So an
 * unauthorised caller learns nothing from validation errors. Scopes computed from arguments
 * are checked by GraphQL during execution.
 */
export function preAuthorize(document: DocumentNode, schema: GraphQLSchema, ctx: Context): void {
  if (!ctx.principal) throw ctx.authProblem ?? new AuthenticationRequired();
  for (const use of rootFieldsOf(document, schema)) {
    const scopes = declaredScopes(use.field);
    if (scopes && typeof scopes === "object") checkScopeMap(ctx, scopes);
  }
}
