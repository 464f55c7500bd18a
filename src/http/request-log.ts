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

/** One access-log line per request (info), and the request id on every response. */
export function useRequestLog(logger: Logger): Plugin<Record<string, unknown>> {
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
      requestIdOf(request);
    },
    onResponse({ request, response }) {
      const requestId = requestIdOf(request);
      response.headers.set("x-request-id", requestId);
      const since = started.get(request);
      logger.info("request", {
        requestId,
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        ms: since === undefined ? undefined : Math.round((performance.now() - since) * 10) / 10,
      });
    },
  };
}

/** The path without the query string (which may carry a context or a filter, not for logs). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "?";
  }
}
