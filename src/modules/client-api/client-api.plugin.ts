import type { Plugin } from "graphql-yoga";
import { match } from "path-to-regexp";
import { errorResponse } from "../../../rest/errors.ts";
import type { AppDeps } from "../../context.ts";
import { clientAddress } from "../../http/client-address.ts";
import { matchesEtag } from "../../http/etag.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../shared/http-body.ts";
import { type ClientSnapshot, clientFeaturesCache } from "../client-features/client-features.cache.ts";
import { type SdkCaller, type SdkKind, sdkCaller } from "../client-features/sdk-credential.ts";
import {
  featuresBody,
  featuresQuery,
  type PreparedBody,
  preferredEncoding,
  sdkFeature,
} from "./features.body.ts";
import { frontendAnswer, frontendContext, frontendToggle } from "./frontend.ts";
import { streamingResponse } from "./streaming.ts";

/** What an SDK route gets: the caller (already checked), its configuration, the request. */
export type SdkRequest = {
  deps: AppDeps;
  caller: SdkCaller;
  request: Request;
  url: URL;
  params: Record<string, string>;
  serverContext: unknown;
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
};

/** Unleash 8.2 serves its client API to admin tokens too (see sdkCaller for their environment). */
const CLIENT: readonly SdkKind[] = ["client-token", "admin-token"];
const FRONTEND: readonly SdkKind[] = ["frontend-token"];

/** The routes of Unleash's client API (server SDKs) and frontend API (browser SDKs). */
export const sdkRoutes: SdkRoute[] = [
  { method: "GET", path: "/api/client/features", accepts: CLIENT, handle: clientFeatures },
  { method: "GET", path: "/api/client/features/:name", accepts: CLIENT, handle: clientFeature },
  { method: "GET", path: "/api/client/streaming", accepts: CLIENT, handle: clientStreaming },
  { method: "GET", path: "/api/frontend", accepts: FRONTEND, handle: frontendFeatures },
  { method: "POST", path: "/api/frontend", accepts: FRONTEND, handle: frontendFeatures },
  { method: "GET", path: "/api/frontend/features/:name", accepts: FRONTEND, handle: frontendFeature },
];

const PREFIXES = ["/api/client", "/api/frontend"];

/**
 * The SDK-facing surface (`/api/client/**`, `/api/frontend/**`): served from the in-memory
 * configuration of the token's scope (clientFeaturesCache), not as GraphQL operations, so a
 * poll costs no database work while nothing changed.
 */
export function sdkApiPlugin(deps: AppDeps, routes: SdkRoute[] = sdkRoutes): Plugin<Record<string, unknown>> {
  const compiled = routes.map((route) => ({ route, matcher: match(route.path) }));
  return {
    async onRequest({ request, url, serverContext, endResponse }) {
      if (!PREFIXES.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return;
      const hits = compiled
        .map(({ route, matcher }) => ({ route, m: matcher(url.pathname) }))
        .filter((hit) => hit.m !== false);
      const hit = hits.find((h) => h.route.method === request.method);
      if (!hit || hit.m === false) {
        if (hits.length === 0) throw new NotFoundError(`No such path: ${request.method} ${url.pathname}`);
        const allow = [...new Set(hits.map((h) => h.route.method))].join(", ");
        const refused = errorResponse(
          405,
          "MethodNotAllowed",
          `${request.method} is not allowed here; use ${allow}`,
        );
        refused.headers.set("allow", allow);
        return endResponse(refused);
      }
      const caller = await sdkCaller(deps, request, hit.route.accepts);
      const params = Object.fromEntries(
        Object.entries(hit.m.params).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]),
      );
      endResponse(
        await hit.route.handle({
          deps,
          caller,
          request,
          url,
          params,
          serverContext,
          snapshot: () => clientFeaturesCache(deps).snapshot(caller.scope),
          body: () => jsonBody(request, deps.config.http.maxBodyBytes),
        }),
      );
    },
  };
}

async function jsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  return text.trim() ? parseJsonBody(text) : undefined;
}

async function clientFeatures(req: SdkRequest): Promise<Response> {
  const body = featuresBody(await req.snapshot(), featuresQuery(req.url.searchParams));
  return sendPrepared(req.request, body);
}

async function clientFeature(req: SdkRequest): Promise<Response> {
  const feature = sdkFeature(await req.snapshot(), req.params.name ?? "");
  if (!feature) throw new NotFoundError(`No flag named "${req.params.name}" for this token.`);
  return Response.json(feature);
}

async function clientStreaming(req: SdkRequest): Promise<Response> {
  return streamingResponse(req.deps, req.caller);
}

async function frontendFeatures(req: SdkRequest): Promise<Response> {
  const source = req.request.method === "POST" ? contextOfBody(await req.body()) : req.url.searchParams;
  const context = frontendContext(
    source,
    clientAddress(req.request, req.serverContext, req.deps.config.auth.trustProxy),
  );
  const { json, etag } = frontendAnswer(await req.snapshot(), context);
  if (matchesEtag(req.request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers: { etag } });
  }
  return new Response(json, { headers: { "content-type": "application/json; charset=utf-8", etag } });
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

/** A prebuilt body: 304 for a matching If-None-Match, else compressed as the client accepts. */
async function sendPrepared(request: Request, body: PreparedBody): Promise<Response> {
  const headers: Record<string, string> = {
    etag: body.etag,
    vary: "accept-encoding",
    "cache-control": "no-cache",
  };
  if (matchesEtag(request.headers.get("if-none-match"), body.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers["content-type"] = "application/json; charset=utf-8";
  const encoding = preferredEncoding(request.headers.get("accept-encoding"));
  if (!encoding) return new Response(bytes(body.json), { headers });
  const encoded = await body.encoded(encoding);
  return new Response(bytes(encoded), { headers: { ...headers, "content-encoding": encoding } });
}

function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}
