import { GraphQLError } from "graphql";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import type pg from "pg";
import { routeTablePlugin } from "../rest/plugin.ts";
import type { Route } from "../rest/route.ts";
import { routeTable } from "../rest/table.ts";
import type { TableRoute } from "../rest/table-route.ts";
import { CHANGE_KINDS } from "./change-kinds.ts";
import type { AppDeps, AppScope, Context } from "./context.ts";
import { type Credentials, callerOfRequest, createContext, socketCredentials } from "./context.ts";
import { EVENT_HOOKS } from "./event-hooks.ts";
import { corsPolicy } from "./http/cors.ts";
import { useHeaderCaller } from "./http/credential-first.ts";
import { GRAPHIQL_OPTIONS, renderOfflineGraphiQL } from "./http/graphiql.ts";
import { useGraphQLGate, useTextInputCheck } from "./http/graphql-gate.ts";
import { useGraphQLLimits } from "./http/graphql-limits.ts";
import { guardOnRequest } from "./http/guard.ts";
import { useMetrics } from "./http/metrics.ts";
import { useRequestLog } from "./http/request-log.ts";
import type { RouteTable } from "./http/route-table.ts";
import { useSecurityHeaders } from "./http/security-headers.ts";
import { useTracing } from "./http/tracing.ts";
import { webUi } from "./http/ui.ts";
import { useCredentialRevocation } from "./modules/live/revocation.plugin.ts";
import { useSharedSubscriptionResults } from "./modules/live/shared-results.plugin.ts";
import { useMaintenanceGuard } from "./modules/maintenance/maintenance.plugin.ts";
import { schema } from "./schema.ts";
import { closeServices, createServices } from "./services.ts";
import { DomainError } from "./shared/errors.ts";

export type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

export type App = {
  /** The yoga server: served over HTTP and graphql-ws by `listen` (src/http-server.ts). */
  yoga: Yoga;
  /** Every route but /graphql, as the app serves them (rest/table.ts). */
  routes: RouteTable<TableRoute>;
  /** Answers one request in process (tests, benchmarks). */
  fetch: Yoga["fetch"];
  /** The dependencies the app was given and the services it built (src/services.ts). */
  scope: AppScope;
  /**
   * Closes the app's services (closeServices): call it once requests are drained. The given
   * dependencies (database, bus, login limiter) stay open for their owner.
   */
  close(): Promise<void>;
};

/**
 * Builds the HTTP application (GraphQL at /graphql, every other route from one table:
 * rest/table.ts) and its services. No listening and no globals: server.ts and tests call this.
 */
export function createApp(
  given: AppDeps & {
    ready?: () => Promise<void>;
    /** The PostgreSQL pool in server mode, for `/metrics`. */
    pool?: pg.Pool;
    /** The REST route table (default: every route of rest/routes). */
    restRoutes?: Route[];
  },
): App {
  const base = { ...given, eventHooks: EVENT_HOOKS, changeKinds: CHANGE_KINDS };
  const deps = { ...base, services: createServices(base) };
  const ui = webUi();
  const routes = routeTable(deps, { restRoutes: given.restRoutes, ready: given.ready, ui: ui.routes });
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // Yoga's own health check answers an empty 200 to every URL that *ends with* its endpoint
    // (a flag named "health" included); a NUL never appears in a request URL, so it never
    // answers, and the route table serves /health and /ready in Unleash's shape (src/http/health.ts).
    healthCheckEndpoint: "\u0000",
    renderGraphiQL: renderOfflineGraphiQL,
    graphiql: GRAPHIQL_OPTIONS,
    logging: false,
    context: (initial) => createContext(deps, credentialsOf(initial)),
    maskedErrors: { maskError: (error, message) => toGraphQLError(error, message, deps) },
    cors: corsPolicy(deps),
    maxRequestBodySize: deps.config.http.maxBodyBytes,
    multipart: false,
    // Every plugin's onRequest is guarded: what it throws is answered in the error body, never
    // by the HTTP adapter's plain-text stack trace.
    plugins: [
      useHeaderCaller(),
      useSecurityHeaders(),
      useRequestLog(deps.logger, deps.config.logLevel === "debug"),
      useMetrics(deps, deps.pool),
      ...(deps.config.tracing ? [useTracing()] : []),
      routeTablePlugin(deps, routes, ui.page),
      useGraphQLGate((request) => callerOfRequest(deps, request)),
      useGraphQLLimits(),
      useTextInputCheck(),
      useMaintenanceGuard(),
      useSharedSubscriptionResults(),
      useCredentialRevocation(deps),
    ].map((plugin) => guardOnRequest(plugin, deps.logger)),
  });
  return {
    yoga,
    routes,
    fetch: yoga.fetch,
    scope: deps,
    close: () => closeServices(deps.services, deps.logger),
  };
}

/**
 * Domain errors keep their message and expose `code` (and details) in extensions; anything
 * unexpected is logged and masked, so internals never leak.
 */
export function toGraphQLError(
  error: unknown,
  fallback: string,
  deps: Pick<AppDeps, "logger">,
): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: original.code, details: original.details, ...original.extra },
    });
  }
  // GraphQL's own request errors (a variable of the wrong type, a missing required one) come
  // without a code: the request was malformed.
  if (error instanceof GraphQLError && !error.originalError) {
    return error.extensions.code
      ? error
      : new GraphQLError(error.message, {
          nodes: error.nodes,
          path: error.path,
          extensions: { ...error.extensions, code: "VALIDATION" },
        });
  }
  // A variable that fails coercion arrives wrapped (originalError is GraphQL's own error):
  // the request was malformed, and the outer message names the field.
  if (error instanceof GraphQLError && original instanceof GraphQLError) {
    return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: "VALIDATION" } });
  }
  deps.logger.error("unexpected error", { error: String((original as Error)?.stack ?? original) });
  return new GraphQLError(fallback, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: "INTERNAL" },
  });
}

/**
 * HTTP requests carry the Authorization header or the session cookie (plus the CSRF header);
 * graphql-ws connections carry a token or the CSRF token in `connectionParams` (socketCredentials).
 */
function credentialsOf(initial: {
  request?: Request;
  connectionParams?: Record<string, unknown>;
  extra?: { credentials?: Credentials; request?: { headers?: { cookie?: string } } };
}): Credentials | { request: Request } {
  if (initial.connectionParams) {
    // A graphql-ws socket's, as its connect found them (src/http-server.ts).
    if (initial.extra?.credentials) return initial.extra.credentials;
    return socketCredentials(initial.connectionParams, initial.extra?.request?.headers?.cookie);
  }
  return initial.request?.headers ? { request: initial.request } : {};
}
