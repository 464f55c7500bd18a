/**
 * Spans of requests and GraphQL executions, through the OpenTelemetry API only (a no-op until
 * src/http/tracing-sdk.ts registers a provider, which the server does when an OTLP endpoint
 * is configured).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { context, propagation, SpanKind, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { Plugin } from "graphql-yoga";
import { VERSION } from "../version.ts";
import { operationOf, surfaceOf } from "./labels.ts";
import { requestIdOf } from "./request-log.ts";

const TRACER = "vexil";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The node request handler inside a server span (continuing the caller's `traceparent`): every
 * span made while answering (GraphQL execution, Prisma queries) is its child. The span ends
 * when the answer has been sent, with its status.
 */
export function tracedHandler(handler: Handler): Handler {
  const tracer = trace.getTracer(TRACER, VERSION);
  return (request, response) => {
    const parent = propagation.extract(context.active(), request.headers);
    const path = (request.url ?? "/").split("?")[0] as string;
    const span = tracer.startSpan(
      `${request.method} ${surfaceOf(path)}`,
      {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": request.method ?? "", "url.path": path },
      },
      parent,
    );
    response.once("close", () => {
      span.setAttribute("http.response.status_code", response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => handler(request, response));
  };
}

/**
 * A span per GraphQL execution (REST routes run operations too), parent of its queries' spans;
 * the request's id on its server span.
 */
export function useTracing(): Plugin<Record<string, unknown>> {
  const tracer: Tracer = trace.getTracer(TRACER, VERSION);
  return {
    onResponse({ request }) {
      trace.getActiveSpan()?.setAttribute("vexil.request_id", requestIdOf(request));
    },
    onExecute({ args, executeFn, setExecuteFn }) {
      const { type, name } = operationOf(args.document, args.operationName);
      const span = tracer.startSpan(`graphql.execute ${type}${name ? ` ${name}` : ""}`, {
        attributes: { "graphql.operation.type": type, ...(name ? { "graphql.operation.name": name } : {}) },
      });
      const inSpan = trace.setSpan(context.active(), span);
      setExecuteFn((executeArgs) => context.with(inSpan, () => executeFn(executeArgs)));
      return {
        onExecuteDone({ result }) {
          if (result && "errors" in result && result.errors?.length) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0]?.message });
          }
          span.end();
        },
      };
    },
  };
}
