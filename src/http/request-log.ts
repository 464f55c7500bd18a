import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "../shared/logger.ts";

const ids = new WeakMap<Request, string>();
const started = new WeakMap<Request, number>();
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

/**
 * One access-log line per request (info), and the request id on every response. With
 * `countSql` (LOG_LEVEL=debug) the line also carries the request's SQL statement count and
 * their summed time.
 */
export function useRequestLog(logger: Logger, countSql = false): Plugin<Record<string, unknown>> {
  const sqlOf = new WeakMap<Request, RequestSql>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
      requestIdOf(request);
      if (countSql) {
        const sql = { statements: 0, ms: 0 };
        sqlOf.set(request, sql);
        // Everything the request's handling awaits from here on runs with this store.
        requestSql.enterWith(sql);
      }
    },
    onResponse({ request, response }) {
      const requestId = requestIdOf(request);
      response.headers.set("x-request-id", requestId);
      const since = started.get(request);
      const sql = sqlOf.get(request);
      logger.info("request", {
        requestId,
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        ms: since === undefined ? undefined : roundMs(performance.now() - since),
        ...(sql ? { sqlStatements: sql.statements, sqlMs: roundMs(sql.ms) } : {}),
      });
    },
  };
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
