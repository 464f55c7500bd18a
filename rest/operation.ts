import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import type { YogaServerInstance } from "graphql-yoga";
import type { AppDeps, Context } from "../src/context.ts";
import { requestIdOf } from "../src/http/request-log.ts";
import { errorResponse } from "../src/shared/error-response.ts";
import { ContentTypeError, DomainError } from "../src/shared/errors.ts";
import { parseJsonBody } from "../src/shared/http-body.ts";
import { unknownBodyFields } from "./body-fields.ts";
import { responseForGraphQLError } from "./errors.ts";
import type { RestRequest, Route } from "./route.ts";
import { preAuthorize } from "./route-permissions.ts";
import { type BodyPathOf, bodyPathOf, restVariables } from "./variables.ts";

/** What an operation route is given: the request, its decoded path parameters, its body reader. */
export type OperationRequest = {
  request: Request;
  url: URL;
  params: Record<string, string>;
  serverContext: object;
  text(): Promise<string>;
};

/**
 * Runs REST routes (`/api/admin/**`) in-process as GraphQL operations against the same schema
 * and context as `/graphql` (never HTTP to itself): the credential and what the path and query
 * decide are checked before the body is read (D-15), then the operation runs and its data
 * becomes Unleash's body. The table's plugin (rest/plugin.ts) gives it the matched route.
 */
export function operationRunner(deps: AppDeps) {
  const parsed = new Map<Route, { document: DocumentNode; bodyPath: BodyPathOf }>();
  let yoga: YogaServerInstance<Record<string, unknown>, Context>;
  return {
    setYoga(instance: unknown) {
      yoga = instance as typeof yoga;
    },
    async run(route: Route, { request, url, params, serverContext, text }: OperationRequest) {
      const authorized = await authorize(route, request, serverContext, { params, query: url.searchParams });
      if (authorized instanceof Response) return authorized;
      const body = await jsonBodyOf(request, text);
      return runRoute(route, authorized, { params, query: url.searchParams, body }, request);
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
 * The JSON body (undefined when empty), read within the route's size limit (413 past it). A body
 * sent as another media type (a form, text/plain) is 415, as in Unleash; no Content-Type is read as JSON.
 */
async function jsonBodyOf(request: Request, read: () => Promise<string>): Promise<unknown> {
  if (request.method === "GET" || request.method === "DELETE" || request.method === "HEAD") return undefined;
  const text = await read();
  if (!text.trim()) return undefined;
  const type = request.headers.get("content-type");
  if (type && !JSON_MEDIA_TYPE.test(type)) throw new ContentTypeError();
  return parseJsonBody(text);
}

/** application/json, and the +json types (application/merge-patch+json, json-patch+json...). */
const JSON_MEDIA_TYPE = /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i;
