import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { type ExecutionResult, type GraphQLError, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../shared/logger.ts";

const ids = new WeakMap<Request, string>();
/** When a request's handling began, and its path (without the query string). */
const started = new WeakMap<Request, { at: number; path: string }>();
/** An id a proxy in front may have given the request, if it is a plain token. */
const INBOUND_ID = /^[\w.:-]{1,128}$/;

/**
 * The request's id: the `x-request-id` a proxy in front sent (when it is a plain token), else a
 * new UUID. The same id is the response's `x-request-id`, the `id` of a REST error body, and
 * the `requestId` of the access-log line and of the errors logged while answering.
 */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (!id) {
    const inbound = request.headers.get("x-request-id");
    id = inbound && INBOUND_ID.test(inbound) ? inbound : randomUUID();
    ids.set(request, id);
  }
  return id;
}

/** The SQL a request has sent so far (statements are counted only with LOG_LEVEL=debug). */
type RequestSql = { statements: number; ms: number };
const requestSql = new AsyncLocalStorage<RequestSql>();

/**
 * The statement listener of the debug log (src/db/sql-observer.ts): adds a statement to the
 * request it was sent for. Work shared between requests (a cache read, a batch) counts for the
 * request that started it.
 */
export function countForRequest(_sql: string, ms: number): void {
  const sql = requestSql.getStore();
  if (!sql) return;
  sql.statements++;
  sql.ms += ms;
}

/** What a GraphQL request ran: its operation's name and the codes of the errors it answered. */
type GraphQLOutcome = { operation?: string; errorCodes?: string[] };

/**
 * One access-log line per request, and the request id on every response. SDK traffic, static
 * assets and health probes are logged at `debug` unless they fail (they are most of the lines and
 * rarely what a reader looks for); a 5xx is an `error`. A GraphQL request's line names its
 * operation and, when it answered errors (with status 200), their codes. With `countSql`
 * (LOG_LEVEL=debug) the line also carries the request's SQL statement count and summed time.
 */
export function useRequestLog(logger: Logger, countSql = false): Plugin<Record<string, unknown>> {
  const sqlOf = new WeakMap<Request, RequestSql>();
  const graphqlOf = new WeakMap<Request, GraphQLOutcome>();
  return {
    onRequest({ request, url }) {
      started.set(request, { at: performance.now(), path: url.pathname });
      requestIdOf(request);
      if (countSql) {
        const sql = { statements: 0, ms: 0 };
        sqlOf.set(request, sql);
        // Everything the request's handling awaits from here on runs with this store.
        requestSql.enterWith(sql);
      }
    },
    onParams({ params, request }) {
      // Named now, for a document that fails before it runs (parse, validation, limits).
      const operation = params.operationName ?? NAMED_OPERATION.exec(params.query ?? "")?.[1];
      if (operation) graphqlOf.set(request, { operation });
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const name = getOperationAST(args.document, args.operationName)?.name?.value;
      if (request && name) graphqlOf.set(request, { ...graphqlOf.get(request), operation: name });
    },
    onResultProcess({ request, result }) {
      const errors = errorsOf(result);
      if (errors.length === 0) return;
      const errorCodes = [...new Set(errors.map(codeOf))];
      graphqlOf.set(request, { ...graphqlOf.get(request), errorCodes });
    },
    onResponse({ request, response }) {
      const requestId = requestIdOf(request);
      response.headers.set("x-request-id", requestId);
      const since = started.get(request);
      const sql = sqlOf.get(request);
      const path = since?.path ?? pathOf(request.url);
      logger[levelOf(path, response.status)]("request", {
        requestId,
        method: request.method,
        path,
        status: response.status,
        ms: since === undefined ? undefined : roundMs(performance.now() - since.at),
        ...graphqlOf.get(request),
        ...(sql ? { sqlStatements: sql.statements, sqlMs: roundMs(sql.ms) } : {}),
      });
    },
  };
}

/** The name of a document's first operation, when it has one. */
const NAMED_OPERATION = /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** Paths whose successful answers are routine: SDKs, static files, probes. */
const ROUTINE_PATHS =
  /^\/(api\/client|api\/frontend|ofrep|edge|assets|graphiql|avatars)(\/|$)|^\/(health|ready|favicon\.ico)$/;

function levelOf(path: string, status: number): "debug" | "info" | "error" {
  if (status >= 500) return "error";
  return status < 400 && ROUTINE_PATHS.test(path) ? "debug" : "info";
}

function errorsOf(result: unknown): readonly GraphQLError[] {
  const results = (Array.isArray(result) ? result : [result]) as (ExecutionResult | undefined)[];
  return results.flatMap((r) => r?.errors ?? []);
}

function codeOf(error: GraphQLError): string {
  const code = error.extensions?.code;
  return typeof code === "string" ? code : "INTERNAL_SERVER_ERROR";
}

const roundMs = (ms: number) => Math.round(ms * 10) / 10;

/** The path without the query string (which may carry a context or a filter, not for logs). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "?";
  }
}
