import { RateLimiterMemory } from "rate-limiter-flexible";
import type { AppScope } from "../../context.ts";
import { sendPrepared } from "../../http/prepared-body.ts";
import type { HandlerRoute, RouteRequest, Surface } from "../../http/route-table.ts";
import { DomainError } from "../../shared/errors.ts";
import { parseJsonBody } from "../../shared/http-body.ts";
import { jsonContent } from "../../shared/openapi.ts";
import { takePoint } from "../../shared/rate-limit.ts";
import { contextKey } from "../client-features/context-key.logic.ts";
import type { SdkCaller } from "../client-features/sdk-credential.write.ts";
import {
  evaluateEveryForOfrep,
  evaluateForOfrep,
  OfrepError,
  toEngineContext,
} from "./ofrep-answer.logic.ts";
import { countOfrepEvaluation } from "./ofrep-usage.write.ts";

/** OFREP's paths answer errors in the protocol's shape (ofrepError), 404 and 405 included. */
const OFREP: Surface = {
  name: "ofrep",
  prefixes: ["/ofrep/v1"],
  decodesPath: false,
  notFound: (_request, path) =>
    ofrepErrorResponse(new OfrepError(404, "GENERAL", `No such OFREP path: ${path}`)),
  methodNotAllowed: (request, allow) =>
    ofrepErrorResponse(
      new OfrepError(405, "GENERAL", `${request.method} is not allowed here; use ${allow}.`),
    ),
  errorResponse: (error) => ofrepError(error),
};

const SDK_TOKENS: HandlerRoute["access"] = { kind: "sdk", tokens: ["client-token", "frontend-token"] };

/**
 * OFREP (OpenFeature Remote Evaluation Protocol) for OpenFeature's providers in any language:
 * single-flag and bulk evaluation and the provider configuration, for client and frontend
 * tokens, evaluated by the one engine on the configuration SDKs are served. Each token gets
 * `ofrepRatePerSecond` calls per second on this node (429 with Retry-After).
 */
export function ofrepRoutes(deps: AppScope): HandlerRoute[] {
  const limiter = new RateLimiterMemory({ points: deps.config.http.ofrepRatePerSecond, duration: 1 });
  const ofrep = { surface: OFREP, access: SDK_TOKENS } as const;
  const tags = ["OpenFeature (OFREP)"];
  return [
    {
      ...ofrep,
      method: "GET",
      path: "/ofrep/v1/configuration",
      doc: {
        operationId: "ofrepConfiguration",
        summary: "The provider configuration",
        description: "Bulk answers may be polled (at most once a second); every flag type is served.",
        tags,
        responses: OFREP_RESPONSES,
      },
      handle: async ({ caller }) => {
        await consume(limiter, callerOf(caller));
        return Response.json(CONFIGURATION);
      },
    },
    {
      ...ofrep,
      method: "POST",
      path: "/ofrep/v1/evaluate/flags",
      doc: {
        operationId: "ofrepEvaluateFlags",
        summary: "Every flag evaluated for the body's `context`",
        description:
          "`{flags: [...]}` with an ETag: the provider caches it and evaluates locally (If-None-Match gives 304).",
        tags,
        requestBody: OFREP_CONTEXT,
        responses: {
          ...OFREP_BODY_RESPONSES,
          "304": { description: "If-None-Match matched the current ETag; no body." },
        },
      },
      handle: async (req) => {
        const caller = callerOf(req.caller);
        await consume(limiter, caller);
        const context = toEngineContext(await readBody(req));
        const snapshot = await deps.services.clientFeatures.snapshot(caller.scope);
        // A bulk answer is not counted: the provider caches it and evaluates locally, so which
        // flags the application uses is unknown here (D-34).
        const document = deps.services.sdkDocuments.of(snapshot, "ofrep-bulk", contextKey(context), () => ({
          flags: evaluateEveryForOfrep(snapshot.sdkCompiled(), context),
        }));
        return sendPrepared(req, document);
      },
    },
    {
      ...ofrep,
      method: "POST",
      path: "/ofrep/v1/evaluate/flags/*key",
      doc: {
        operationId: "ofrepEvaluateFlag",
        summary: "One flag evaluated for the body's `context`",
        description:
          "`{key, value, reason, variant, metadata}`, or the protocol's error with the key (404 FLAG_NOT_FOUND).",
        tags,
        requestBody: OFREP_CONTEXT,
        responses: {
          ...OFREP_BODY_RESPONSES,
          "404": { description: "No such flag for this token (FLAG_NOT_FOUND)." },
        },
      },
      handle: async (req) => {
        const caller = callerOf(req.caller);
        const key = decodeKey(req.params.key ?? "");
        await consume(limiter, caller);
        const context = toEngineContext(await readBody(req));
        const snapshot = await deps.services.clientFeatures.snapshot(caller.scope);
        const evaluation = evaluateForOfrep(snapshot.sdkCompiled(), key, context);
        await countOfrepEvaluation(deps, caller, req.request, evaluation);
        return Response.json(evaluation);
      },
    },
  ];
}

const OFREP_CONTEXT = {
  required: false,
  content: jsonContent({ type: "object", properties: { context: { type: "object" } } }),
};

const ofrepErrorDoc = (description: string) => ({
  description,
  content: jsonContent({
    type: "object",
    properties: { key: { type: "string" }, errorCode: { type: "string" }, errorDetails: { type: "string" } },
  }),
});

const OFREP_RESPONSES = {
  "200": { description: "Success.", content: jsonContent({ type: "object" }) },
  "400": ofrepErrorDoc("Malformed body or context (PARSE_ERROR, INVALID_CONTEXT)."),
  "401": ofrepErrorDoc("No token, or an unknown or expired one."),
  "403": ofrepErrorDoc("A token of another kind."),
  "429": ofrepErrorDoc("Too many evaluations for this token; see Retry-After."),
};

/** The routes that read a body: one past VEXIL_MAX_BODY_BYTES is a 413. */
const OFREP_BODY_RESPONSES = {
  ...OFREP_RESPONSES,
  "413": ofrepErrorDoc("The body is larger than VEXIL_MAX_BODY_BYTES."),
};

/** The table's plugin checked the caller (access `sdk`). */
function callerOf(caller: SdkCaller | undefined): SdkCaller {
  if (!caller) throw new Error("OFREP route without its checked caller");
  return caller;
}

function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new OfrepError(400, "PARSE_ERROR", "The flag key is not valid percent-encoding (UTF-8).");
  }
}

async function readBody(req: RouteRequest): Promise<unknown> {
  const text = await req.text();
  if (!text.trim()) return undefined;
  try {
    return parseJsonBody(text);
  } catch (error) {
    throw new OfrepError(400, "PARSE_ERROR", (error as Error).message);
  }
}

async function consume(limiter: RateLimiterMemory, caller: SdkCaller) {
  const retryAfter = await takePoint(limiter, String(caller.principal.tokenId));
  if (retryAfter > 0) {
    throw new OfrepError(
      429,
      "GENERAL",
      `Too many evaluations for this token; retry in ${retryAfter} s.`,
      undefined,
      retryAfter,
    );
  }
}

/**
 * The protocol's error bodies: `{key?, errorCode, errorDetails}` (401/403/429: `{errorDetails}`);
 * null for an error it has no answer for (the REST error body then, guard.ts).
 */
function ofrepError(error: unknown): Response | null {
  if (error instanceof OfrepError) return ofrepErrorResponse(error);
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
  return null;
}

function ofrepErrorResponse(error: OfrepError): Response {
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
