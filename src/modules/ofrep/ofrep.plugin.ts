import type { Plugin } from "graphql-yoga";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { AppScope } from "../../context.ts";
import { matchesEtag } from "../../http/etag.ts";
import { DomainError } from "../../shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../shared/http-body.ts";
import { type SdkCaller, sdkCaller } from "../client-features/sdk-credential.write.ts";
import {
  evaluateEveryForOfrep,
  evaluateForOfrep,
  OfrepError,
  toEngineContext,
} from "./ofrep-answer.logic.ts";
import { countOfrepEvaluation } from "./ofrep-usage.write.ts";

const PREFIX = "/ofrep/v1";
const SINGLE = /^\/ofrep\/v1\/evaluate\/flags\/(.+)$/;

/**
 * OFREP (OpenFeature Remote Evaluation Protocol) for OpenFeature's providers in any language:
 * single-flag and bulk evaluation and the provider configuration, for client and frontend
 * tokens, evaluated by the one engine on the configuration SDKs are served.
 */
export function ofrepPlugin(deps: AppScope): Plugin<Record<string, unknown>> {
  const limiter = new RateLimiterMemory({ points: deps.config.http.ofrepRatePerSecond, duration: 1 });
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return;
      endResponse(await answer(deps, limiter, request, url).catch(errorResponse));
    },
  };
}

async function answer(deps: AppScope, limiter: RateLimiterMemory, request: Request, url: URL) {
  const route = routeOf(request.method, url.pathname);
  const caller = await sdkCaller(deps, request, ["client-token", "frontend-token"]);
  await consume(limiter, caller);
  if (route.kind === "configuration") return Response.json(CONFIGURATION);
  const context = toEngineContext(await readBody(request, deps.config.http.maxBodyBytes));
  const snapshot = await deps.services.clientFeatures.snapshot(caller.scope);
  const compiled = snapshot.sdkCompiled();
  if (route.kind === "single") {
    const evaluation = evaluateForOfrep(compiled, route.key, context);
    await countOfrepEvaluation(deps, caller, request, evaluation);
    return Response.json(evaluation);
  }
  // A bulk answer is not counted: the provider caches it and evaluates locally, so which flags
  // the application uses is unknown here (D-34).
  const { json: body, etag } = deps.services.contextAnswers.answer(snapshot, "ofrep-bulk", context, () => ({
    flags: evaluateEveryForOfrep(compiled, context),
  }));
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: { etag } });
  }
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8", etag } });
}

type Route = { kind: "configuration" } | { kind: "bulk" } | { kind: "single"; key: string };

function routeOf(method: string, path: string): Route {
  const single = SINGLE.exec(path);
  const route: Route | null =
    path === `${PREFIX}/configuration`
      ? { kind: "configuration" }
      : path === `${PREFIX}/evaluate/flags`
        ? { kind: "bulk" }
        : single
          ? { kind: "single", key: decodeKey(single[1] as string) }
          : null;
  if (!route) throw new OfrepError(404, "GENERAL", `No such OFREP path: ${path}`);
  const wanted = route.kind === "configuration" ? "GET" : "POST";
  if (method !== wanted)
    throw new OfrepError(405, "GENERAL", `${method} is not allowed here; use ${wanted}.`);
  return route;
}

function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new OfrepError(400, "PARSE_ERROR", "The flag key is not valid percent-encoding (UTF-8).");
  }
}

async function readBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (!text.trim()) return undefined;
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw new OfrepError(400, "PARSE_ERROR", (error as Error).message);
  }
}

async function consume(limiter: RateLimiterMemory, caller: SdkCaller) {
  try {
    await limiter.consume(String(caller.principal.tokenId));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new OfrepError(
      429,
      "GENERAL",
      `Too many evaluations for this token; retry in ${retryAfter} s.`,
      undefined,
      retryAfter,
    );
  }
}

/** The protocol's error bodies: `{key?, errorCode, errorDetails}` (401/403/429: `{errorDetails}`). */
function errorResponse(error: unknown): Response {
  if (error instanceof OfrepError) {
    const headers: Record<string, string> = {};
    if (error.retryAfter) headers["retry-after"] = String(error.retryAfter);
    const body =
      error.status === 429 || error.status === 405
        ? { errorDetails: error.message }
        : {
            ...(error.key !== undefined ? { key: error.key } : {}),
            errorCode: error.errorCode,
            errorDetails: error.message,
          };
    return Response.json(body, { status: error.status, headers });
  }
  if (error instanceof DomainError) {
    const status = STATUS_BY_CODE[error.code];
    if (status) {
      const body =
        status === 400
          ? { errorCode: "PARSE_ERROR", errorDetails: error.message }
          : { errorDetails: error.message };
      return Response.json(body, { status });
    }
  }
  throw error;
}

const STATUS_BY_CODE: Partial<Record<DomainError["code"], number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 400,
};

/** The provider configuration (OFREP extension): bulk answers may be polled, every type served. */
const CONFIGURATION = {
  name: "Vexil",
  capabilities: {
    cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 1000 } },
    flagEvaluation: { supportedTypes: ["boolean", "string", "int", "float", "object"] },
  },
};
