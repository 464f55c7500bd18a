import type { AppScope } from "../../context.ts";
import { clientAddress } from "../../http/client-address.ts";
import { sendPrepared } from "../../http/prepared-body.ts";
import { requestIdOf } from "../../http/request-log.ts";
import type { HandlerRoute, OperationDoc, RouteRequest, Surface } from "../../http/route-table.ts";
import { errorResponse } from "../../shared/error-response.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { errorResponseDoc, jsonContent } from "../../shared/openapi.ts";
import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import { contextKey } from "../client-features/context-key.logic.ts";
import type { SdkCaller, SdkKind } from "../client-features/sdk-credential.write.ts";
import type { SdkType } from "../client-metrics/batch.logic.ts";
import {
  receiveBulkMetrics,
  receiveClientMetrics,
  registerClient,
  sdkReportBody,
} from "../client-metrics/ingest.write.ts";
import { SdkWritesRateLimited } from "../client-metrics/sdk-write-limits.cache.ts";
import { answerOf, featuresQuery, sdkFeature } from "./features-body.logic.ts";
import { frontendContext, frontendToggle, frontendToggles } from "./frontend.logic.ts";
import { streamingResponse } from "./streaming.live.ts";

/** What an SDK route gets: the caller (already checked), its configuration, the request. */
export type SdkRequest = RouteRequest & {
  deps: AppScope;
  caller: SdkCaller;
  snapshot(): Promise<ClientSnapshot>;
  /** The JSON body (undefined when empty), within the size limit. */
  body(): Promise<unknown>;
};

/** An SDK-facing route: which tokens it takes and what it answers. */
export type SdkRoute = {
  method: "GET" | "POST";
  path: string;
  accepts: readonly SdkKind[];
  handle(req: SdkRequest): Promise<Response>;
  /** For the OpenAPI document (sdkOperationDoc); a route without one is listed by its path. */
  doc?: SdkRouteDoc;
};

/** What the OpenAPI document says of an SDK route. */
export type SdkRouteDoc = {
  summary: string;
  description?: string;
  /** Query parameters the route reads. */
  query?: Record<string, string>;
  /** Status of success (200 unless said), and whether an ETag can give 304. */
  status?: number;
  etag?: boolean;
  /** What the success answer is (media type application/json unless said). */
  mediaType?: string;
};

const FEATURE_FILTERS = {
  project: "Only flags of these projects (repeatable), within the token's.",
  namePrefix: "Only flags whose name starts with this.",
  tag: "Only flags with this tag, `type:value` (repeatable).",
  environment: "Admin tokens only: the environment to read (default: `default`), as in Unleash 8.2.",
};
const FRONTEND_CONTEXT = {
  userId: "Context field.",
  sessionId: "Context field.",
  remoteAddress: "Context field (default: the caller's address).",
  appName: "Context field.",
  environment: "Context field.",
  "properties[name]": "Any other context field, as unleash-proxy-client sends it.",
};

/** Unleash 8.2 serves its client API to admin tokens too (see sdkCaller for their environment). */
const CLIENT: readonly SdkKind[] = ["client-token", "admin-token"];
const FRONTEND: readonly SdkKind[] = ["frontend-token"];

/** The routes of Unleash's client API (server SDKs) and frontend API (browser SDKs). */
const SDK_ROUTES: SdkRoute[] = [
  {
    method: "GET",
    path: "/api/client/features",
    accepts: CLIENT,
    handle: clientFeatures,
    doc: {
      summary: "The flags of the token's environment and projects, in Unleash's client-features format.",
      description: "gzip or brotli when Accept-Encoding asks; built once per configuration change.",
      query: FEATURE_FILTERS,
      etag: true,
    },
  },
  {
    method: "GET",
    path: "/api/client/features/:name",
    accepts: CLIENT,
    handle: clientFeature,
    doc: { summary: "One flag in the client-features format (404 outside the token's scope)." },
  },
  {
    method: "GET",
    path: "/api/client/streaming",
    accepts: CLIENT,
    handle: clientStreaming,
    doc: {
      summary: "Server-sent events for unleash-client's streaming mode.",
      description:
        "`unleash-connected` with a `hydration` event, then `unleash-updated` with feature-updated, " +
        "feature-removed, segment-updated and segment-removed events; a comment every 25 s. Open streams are " +
        "capped per token and per node (`VEXIL_STREAMS_PER_TOKEN`, `VEXIL_STREAMS_PER_NODE`): 429 with Retry-After.",
      mediaType: "text/event-stream",
    },
  },
  {
    method: "GET",
    path: "/api/frontend",
    accepts: FRONTEND,
    handle: frontendFeatures,
    doc: {
      summary: "The flags that are on for the context in the query string, with their variants.",
      query: FRONTEND_CONTEXT,
      etag: true,
    },
  },
  {
    method: "POST",
    path: "/api/frontend",
    accepts: FRONTEND,
    handle: frontendFeatures,
    doc: {
      summary: "The flags that are on for the body's `context`, with their variants.",
      etag: true,
    },
  },
  {
    method: "GET",
    path: "/api/frontend/features/:name",
    accepts: FRONTEND,
    handle: frontendFeature,
    doc: { summary: "One flag for the context in the query string (404 when off).", query: FRONTEND_CONTEXT },
  },
  {
    method: "POST",
    path: "/api/client/register",
    accepts: CLIENT,
    handle: report(registerClient, "backend"),
    doc: { summary: "An SDK instance starts (unleash-client's register body); 202.", status: 202 },
  },
  {
    method: "POST",
    path: "/api/client/metrics",
    accepts: CLIENT,
    handle: report(receiveClientMetrics, "backend"),
    doc: {
      summary: "One SDK metrics bucket (yes/no and variant counts per flag); 202.",
      description:
        "A malformed or oversized body is refused whole with 400; counts are the token's environment's.",
      status: 202,
    },
  },
  {
    method: "POST",
    path: "/api/client/metrics/bulk",
    accepts: CLIENT,
    handle: bulkReport,
    doc: {
      summary: "Unleash Edge's batch: application registrations and metrics rows; 202.",
      description:
        "Body `{applications: [register bodies with sdkType], metrics: [{featureName, appName, environment, timestamp, yes, no, variants}]}`. " +
        "Rows for an environment the token does not cover are dropped (as Unleash); a malformed body is refused whole with 400.",
      status: 202,
    },
  },
  {
    method: "POST",
    path: "/api/frontend/client/register",
    accepts: FRONTEND,
    handle: report(registerClient, "frontend", 200),
    doc: {
      summary: "A frontend SDK instance starts (unleash-proxy-client's register body); 200 as Unleash.",
      status: 200,
    },
  },
  {
    method: "POST",
    path: "/api/frontend/client/metrics",
    accepts: FRONTEND,
    handle: report(receiveClientMetrics, "frontend", 200),
    doc: {
      summary: "One frontend SDK metrics bucket; 200 as Unleash (400 for a malformed body).",
      status: 200,
    },
  },
];

/**
 * The SDK-facing surface (`/api/client/**`, `/api/frontend/**`): served from the in-memory
 * configuration of the token's scope (the app's client-features cache), not as GraphQL
 * operations, so a poll costs no database work while nothing changed.
 */
const SDK: Surface = { name: "sdk", prefixes: ["/api/client", "/api/frontend"], decodesPath: true };

/** The SDK routes of the route table; the table's plugin checks their token kinds (`accepts`). */
export function sdkRoutes(deps: AppScope, routes: SdkRoute[] = SDK_ROUTES): HandlerRoute[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    surface: SDK,
    access: { kind: "sdk", tokens: route.accepts },
    doc: sdkOperationDoc(route),
    handle: (req) => {
      const caller = req.caller;
      if (!caller) throw new Error(`${route.path} without its checked caller`);
      // Spelled out rather than spread: an SDK poll is the most frequent request there is.
      return route.handle({
        request: req.request,
        Response: req.Response,
        url: req.url,
        params: req.params,
        serverContext: req.serverContext,
        caller,
        text: req.text,
        json: req.json,
        deps,
        snapshot: () => deps.services.clientFeatures.snapshot(caller.scope),
        body: req.json,
      });
    },
  }));
}

/** An SDK route in the OpenAPI document (tags "Client" and "Frontend API", as Unleash's). */
function sdkOperationDoc(route: SdkRoute): OperationDoc {
  const doc = route.doc ?? { summary: route.path };
  const status = String(doc.status ?? 200);
  // A register or metrics report past the size limit is refused as a malformed one (sdkReportBody).
  const report = route.method === "POST" && route.path.includes("/client/");
  return {
    summary: doc.summary,
    description: doc.description,
    tags: [route.path.startsWith("/api/frontend") ? "Frontend API" : "Client"],
    operationId: `sdk${route.method}${route.path.replace(/[^a-zA-Z0-9]+(.)/g, (_m, c: string) => c.toUpperCase())}`,
    parameters: Object.entries(doc.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      schema: { type: "string" },
      description,
    })),
    requestBody:
      route.method === "POST" ? { required: false, content: jsonContent({ type: "object" }) } : undefined,
    responses: {
      [status]: {
        description: `Success (accepted tokens: ${route.accepts.join(", ")}).`,
        content: { [doc.mediaType ?? "application/json"]: { schema: {} } },
      },
      ...(doc.etag ? { "304": { description: "If-None-Match matched the current ETag; no body." } } : {}),
      "400": errorResponseDoc(
        report
          ? "Malformed input, or a body larger than VEXIL_MAX_BODY_BYTES (ValidationError)."
          : "Malformed input (ValidationError).",
      ),
      "401": errorResponseDoc("No token, or an unknown or expired one (AuthenticationRequired)."),
      "403": errorResponseDoc("A token of another kind (ForbiddenOperation)."),
      ...(route.path.includes(":")
        ? { "404": errorResponseDoc("No such flag for this token (NotFoundError).") }
        : {}),
      ...(route.method === "POST" && !report
        ? { "413": errorResponseDoc("The body is larger than VEXIL_MAX_BODY_BYTES.") }
        : {}),
      ...(report
        ? { "429": errorResponseDoc("Too many SDK writes for this token or address; see Retry-After.") }
        : {}),
      ...(route.handle === clientStreaming
        ? { "429": errorResponseDoc("Too many open streams for the token or the node; see Retry-After.") }
        : {}),
    },
  };
}

/**
 * A register or metrics call (client-metrics module), answered without a body once accepted
 * (see its ingestor): 202 on /api/client, 200 on /api/frontend (Unleash's statuses).
 */
function report(receive: typeof registerClient, sdkType: SdkType, status = 202) {
  return (req: SdkRequest): Promise<Response> =>
    limitedWrite(req, async () => {
      const { environment, projects } = req.caller.scope;
      const scope = { environment, projects: projects === "*" ? ["*"] : projects };
      await receive(req.deps, scope, await sdkReportBody(req), sdkType);
      return new Response(null, { status });
    });
}

function bulkReport(req: SdkRequest): Promise<Response> {
  return limitedWrite(req, async () => {
    const { environment, projects } = req.caller.scope;
    const scope = { environment, projects: projects === "*" ? ["*"] : projects };
    await receiveBulkMetrics(req.deps, scope, await sdkReportBody(req));
    return new Response(null, { status: 202 });
  });
}

/**
 * An SDK write counts against the per-token and per-address limits before its body is read;
 * over a limit it is answered 429 with Retry-After (unleash-client keeps its bucket and backs
 * off; unleash-proxy-client drops that bucket; D-35).
 */
async function limitedWrite(req: SdkRequest, write: () => Promise<Response>): Promise<Response> {
  const { principal } = req.caller;
  const address = clientAddress(req.request, req.serverContext, req.deps.config.auth.trustProxy);
  try {
    await req.deps.services.sdkWriteLimiter.take(String(principal.tokenId ?? principal.name), address);
    return await write();
  } catch (error) {
    if (!(error instanceof SdkWritesRateLimited)) throw error;
    const refused = errorResponse(429, error.name, error.message, {}, requestIdOf(req.request));
    refused.headers.set("retry-after", String(error.retryAfterSeconds));
    return refused;
  }
}

async function clientFeatures(req: SdkRequest): Promise<Response> {
  const snapshot = await req.snapshot();
  const query = featuresQuery(req.url.searchParams);
  const document = req.deps.services.sdkDocuments.of(snapshot, "client-features", JSON.stringify(query), () =>
    answerOf(snapshot, query),
  );
  return sendPrepared(req, document, { "cache-control": "no-cache" });
}

async function clientFeature(req: SdkRequest): Promise<Response> {
  const feature = sdkFeature(await req.snapshot(), req.params.name ?? "");
  if (!feature) throw new NotFoundError(`No flag named "${req.params.name}" for this token.`);
  return Response.json(feature);
}

async function clientStreaming(req: SdkRequest): Promise<Response> {
  return streamingResponse(req.deps, req.caller, req.request);
}

async function frontendFeatures(req: SdkRequest): Promise<Response> {
  const source = req.request.method === "POST" ? contextOfBody(await req.body()) : req.url.searchParams;
  const context = frontendContext(
    source,
    clientAddress(req.request, req.serverContext, req.deps.config.auth.trustProxy),
  );
  const snapshot = await req.snapshot();
  // Evaluated once per version and context: browser SDKs poll with the same context.
  const document = req.deps.services.sdkDocuments.of(snapshot, "frontend", contextKey(context), () => ({
    toggles: frontendToggles(snapshot, context),
  }));
  return sendPrepared(req, document);
}

async function frontendFeature(req: SdkRequest): Promise<Response> {
  const context = frontendContext(
    req.url.searchParams,
    clientAddress(req.request, req.serverContext, req.deps.config.auth.trustProxy),
  );
  const toggle = frontendToggle(await req.snapshot(), req.params.name ?? "", context);
  if (!toggle) throw new NotFoundError(`Flag "${req.params.name}" is not enabled for this context.`);
  return Response.json(toggle);
}

function contextOfBody(body: unknown): unknown {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError("The body must be an object with a `context` object.");
  }
  const context = (body as { context?: unknown }).context;
  if (context !== undefined && (typeof context !== "object" || context === null || Array.isArray(context))) {
    throw new ValidationError("context must be an object.");
  }
  return context ?? {};
}
