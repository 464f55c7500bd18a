import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import type { Plugin, YogaServerInstance } from "graphql-yoga";
import { match } from "path-to-regexp";
import type { AppDeps, Context } from "../src/context.ts";
import { assertDecodablePath } from "../src/http/path-encoding.ts";
import { requestIdOf } from "../src/http/request-log.ts";
import { errorResponse } from "../src/shared/error-response.ts";
import { ContentTypeError, DomainError } from "../src/shared/errors.ts";
import { parseJsonBody, readBodyText } from "../src/shared/http-body.ts";
import { unknownBodyFields } from "./body-fields.ts";
import { docsResponse } from "./docs-page.ts";
import { responseForGraphQLError } from "./errors.ts";
import { openApiDocument } from "./openapi.ts";
import type { RestRequest, Route } from "./route.ts";
import { preAuthorize } from "./route-permissions.ts";
import { allRoutes } from "./routes/index.ts";
import { type BodyPathOf, bodyPathOf, restVariables } from "./variables.ts";

const PREFIX = "/api/admin";

type CompiledRoute = Route & {
  matcher: (path: string) => false | { params: Partial<Record<string, string | string[]>> };
};

/**
 * The REST compatibility layer inside yoga: `/api/admin/**` requests are matched against the
 * route table and executed in-process as GraphQL operations against the same schema and
 * context (never HTTP to itself). Also serves `/docs` and `/docs/openapi.json`.
 */
export function restPlugin(deps: AppDeps, routes: Route[] = allRoutes): Plugin<Record<string, unknown>> {
  const compiled: CompiledRoute[] = routes.map((r) => ({ ...r, matcher: match(r.path) }));
  const parsed = new Map<Route, { document: DocumentNode; bodyPath: BodyPathOf }>();
  let yoga: YogaServerInstance<Record<string, unknown>, Context>;
  return {
    onYogaInit({ yoga: instance }) {
      yoga = instance as unknown as typeof yoga;
    },
    async onRequest({ request, url, serverContext, endResponse }) {
      if (url.pathname === "/docs/openapi.json")
        return endResponse(Response.json(openApiDocument(routes, deps)));
      if (url.pathname === "/docs" || url.pathname.startsWith("/docs/")) {
        const docs = await docsResponse(request, url.pathname);
        if (docs) return endResponse(docs);
      }
      if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) return;
      assertDecodablePath(url.pathname);
      const pathMatches = compiled
        .map((route) => ({ route, m: route.matcher(url.pathname) }))
        .filter((x) => x.m !== false);
      if (pathMatches.length === 0) {
        return endResponse(
          errorResponse(
            404,
            "NotFoundError",
            `No such path: ${request.method} ${url.pathname}`,
            {},
            requestIdOf(request),
          ),
        );
      }
      const hit = pathMatches.find((x) => x.route.method === request.method);
      if (!hit || hit.m === false) {
        const allow = [...new Set(pathMatches.map((x) => x.route.method))].join(", ");
        return endResponse(
          withHeaders(
            errorResponse(
              405,
              "MethodNotAllowed",
              `${request.method} is not allowed here; use ${allow}`,
              {},
              requestIdOf(request),
            ),
            {
              allow,
            },
          ),
        );
      }
      const params = flatParams(hit.m.params);
      // Before the body is read (D-15): the credential, and what the path and query decide.
      const authorized = await authorize(hit.route, request, serverContext, {
        params,
        query: url.searchParams,
      });
      if (authorized instanceof Response) return endResponse(authorized);
      const body = await readJsonBody(request, deps.config.http.maxBodyBytes);
      const req: RestRequest = { params, query: url.searchParams, body };
      endResponse(await runRoute(hit.route, authorized, req, request));
    },
  };

  /** Parses and validates a route's document the first time it runs; a bad one is a bug. */
  function parseOnce(route: Route, enveloped: ReturnType<typeof yoga.getEnveloped>) {
    const document = enveloped.parse(route.document);
    const problems = enveloped.validate(enveloped.schema, document);
    if (problems.length > 0)
      throw new Error(`REST route ${route.method} ${route.path}: ${problems[0]?.message}`);
    const compiled = { document, bodyPath: bodyPathOf(enveloped.schema, document, route.bodyPaths) };
    parsed.set(route, compiled);
    return compiled;
  }

  /** The route's operation with the caller's context, or the answer when the caller may not run it (401, 403). */
  async function authorize(
    route: Route,
    request: Request,
    serverContext: object,
    beforeBody: Omit<RestRequest, "body">,
  ) {
    const enveloped = yoga.getEnveloped({ ...serverContext, request, params: { query: route.document } });
    const { document, bodyPath } = parsed.get(route) ?? parseOnce(route, enveloped);
    const contextValue = await enveloped.contextFactory();
    const refusal = refusalOf(
      document,
      enveloped.schema,
      contextValue,
      rawVariables(route, { ...beforeBody, body: undefined }).raw,
      request,
    );
    return refusal ?? { enveloped, document, bodyPath, contextValue };
  }

  /** The route's variables, not yet validated: a refusal of them waits until the permission is known (D-12). */
  function rawVariables(
    route: Route,
    req: RestRequest,
  ): { raw: Record<string, unknown>; mappingError?: unknown } {
    try {
      return { raw: route.variables?.(req) ?? {} };
    } catch (error) {
      return { raw: {}, mappingError: error };
    }
  }

  /** 401 or 403 when the caller may not run the document with these (raw) arguments anywhere. */
  function refusalOf(
    document: DocumentNode,
    schema: GraphQLSchema,
    contextValue: unknown,
    raw: Record<string, unknown>,
    request: Request,
  ): Response | null {
    try {
      preAuthorize(document, schema, contextValue as Context, raw);
      return null;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return responseForGraphQLError(
        { message: error.message, extensions: { code: error.code, ...error.extra } },
        requestIdOf(request),
      );
    }
  }

  async function runRoute(
    route: Route,
    { enveloped, document, bodyPath, contextValue }: Exclude<Awaited<ReturnType<typeof authorize>>, Response>,
    req: RestRequest,
    request: Request,
  ) {
    // With the body's arguments too: a caller who may do this nowhere learns nothing from validation.
    const { raw, mappingError } = rawVariables(route, req);
    const refusal = refusalOf(document, enveloped.schema, contextValue, raw, request);
    if (refusal) return refusal;
    // Fields Unleash refuses (a strict body schema) are 400s; unknown fields elsewhere are dropped.
    const unknown = unknownBodyFields(route.schemas?.body, req.body);
    if (unknown.length > 0) {
      return errorResponse(
        400,
        "ValidationError",
        unknown.map((u) => u.message).join(" "),
        { details: unknown },
        requestIdOf(request),
      );
    }
    let variableValues: Record<string, unknown>;
    try {
      if (mappingError) throw mappingError;
      variableValues = restVariables(enveloped.schema, document, raw, bodyPath);
    } catch (error) {
      // Builders refuse bad input with a DomainError; anything else is a bug: a logged 500.
      if (!(error instanceof DomainError)) throw error;
      return responseForGraphQLError(
        { message: error.message, extensions: { code: error.code, details: error.details, ...error.extra } },
        requestIdOf(request),
      );
    }
    const result = (await enveloped.execute({
      schema: enveloped.schema,
      document,
      variableValues,
      contextValue,
    })) as ExecutionResult;
    const firstError = result.errors?.[0];
    if (firstError) {
      return responseForGraphQLError(
        firstError.toJSON ? firstError.toJSON() : firstError,
        requestIdOf(request),
        {
          bodyPath,
          schema: enveloped.schema,
        },
      );
    }
    const data = (result.data ?? {}) as Record<string, unknown>;
    const status = route.status ?? 200;
    const headers = { ...route.headers };
    if (status === 202 || status === 204 || route.emptyBody) return new Response(null, { status, headers });
    let payload: unknown;
    try {
      payload = route.respond ? route.respond(data, req) : Object.values(data)[0];
    } catch (error) {
      // A route may refuse a result GraphQL answers with null (e.g. 404 for a missing object).
      if (!(error instanceof DomainError)) throw error;
      return responseForGraphQLError(
        { message: error.message, extensions: { code: error.code } },
        requestIdOf(request),
      );
    }
    if (deps.checkRestResponses) {
      const mismatch = declaredShapeMismatch(route, payload);
      if (mismatch) return errorResponse(500, "ResponseSchemaMismatch", mismatch, {}, requestIdOf(request));
    }
    if (route.contentType) {
      return new Response(String(payload), {
        status,
        headers: { ...headers, "content-type": route.contentType },
      });
    }
    return Response.json(payload, { status, headers });
  }
}

/** Where `payload` differs from the route's declared response schema, or null when it matches. */
function declaredShapeMismatch(route: Route, payload: unknown): string | null {
  const schema = route.schemas?.response;
  if (!schema) return `${route.method} ${route.path} declares no response schema`;
  const result = schema.safeParse(JSON.parse(JSON.stringify(payload)));
  if (result.success) return null;
  const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
  return `${route.method} ${route.path} answered outside its declared response schema: ${issues.join("; ")}`;
}

/**
 * The JSON body (undefined when empty), read within the size limit (413 past it). A body sent
 * as another media type (a form, text/plain) is 415, as in Unleash; no Content-Type is read as JSON.
 */
async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  if (request.method === "GET" || request.method === "DELETE" || request.method === "HEAD") return undefined;
  const text = await readBodyText(request, limit);
  if (!text.trim()) return undefined;
  const type = request.headers.get("content-type");
  if (type && !JSON_MEDIA_TYPE.test(type)) throw new ContentTypeError();
  return parseJsonBody(text);
}

/** application/json, and the +json types (application/merge-patch+json, json-patch+json...). */
const JSON_MEDIA_TYPE = /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i;

/** Path parameters are percent-decoded; a path that cannot be is a bad request, not a URIError. */
function flatParams(params: Partial<Record<string, string | string[]>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : (v ?? "")]),
  );
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}
