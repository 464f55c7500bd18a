import { z } from "zod";
import type { AppDeps } from "../src/context.ts";
import type { HandlerRoute, RouteTable } from "../src/http/route-table.ts";
import { STATUS_NAMES } from "../src/shared/error-response.ts";
import { errorResponseDoc, jsonRequestBody } from "../src/shared/openapi.ts";
import { VERSION } from "../src/version.ts";
import type { Route } from "./route.ts";
import { errorSchema } from "./schemas.ts";
import { isOperationRoute, type TableRoute } from "./table-route.ts";

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
  }) as JsonSchema;
  return rest;
}

const ERROR_TEXT: Record<number, string> = {
  400: "The request does not match the schema (ValidationError).",
  401: "Authorization missing or invalid (AuthenticationRequired).",
  403: "Valid credentials, insufficient permission (NoAccessError).",
  404: "The resource does not exist (NotFoundError).",
  409: "The name is taken or the object changed (NameExistsError / ConflictError).",
  413: "The request body is larger than VEXIL_MAX_BODY_BYTES (PayloadTooLargeError).",
  415: "The body was sent as another media type than JSON (ContentTypeError).",
  429: "Too many requests (RateLimitError).",
};

/** The OpenAPI 3.1 document of every HTTP route but /graphql, generated from the route table. */
export function openApiDocument(
  table: Pick<RouteTable<TableRoute>, "routes">,
  deps: Pick<AppDeps, "config">,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of table.routes) {
    const path = route.path.replace(/[:*](\w+)/g, "{$1}");
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = isOperationRoute(route)
      ? operationRouteDoc(route)
      : handlerRouteDoc(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Vexil admin API (Unleash-compatible REST layer)",
      version: VERSION,
      description: `Every HTTP route of Vexil but /graphql. Every /api/admin path runs a GraphQL operation of /graphql in-process; /api/client and /api/frontend (tags Client, Frontend API) and OFREP are served from the SDK configuration cache. Error names: ${Object.values(
        STATUS_NAMES,
      )
        .map((s) => `${s.status} ${s.name}`)
        .join(", ")}.`,
    },
    servers: [{ url: deps.config.publicUrl }],
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "An API token or personal access token.",
        },
      },
      schemas: { Error: jsonSchema(errorSchema) },
    },
    paths: JSON.parse(JSON.stringify(paths)),
  };
}

function operationId(route: Route): string {
  const words = route.path
    .replace("/api/admin/", "")
    .split("/")
    .map((s) => (s.startsWith(":") ? `by-${s.slice(1)}` : s));
  return [route.method.toLowerCase(), ...words]
    .join("-")
    .replace(/[^a-zA-Z0-9]+(.)/g, (_m, c: string) => c.toUpperCase());
}

/** The path's parameters (`:name`, `*name`), each a required string. */
function pathParameters(path: string) {
  return [...path.matchAll(/[:*](\w+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
}

/** A route with its own handler: its `doc`, with the path's parameters and who may call. */
function handlerRouteDoc(route: HandlerRoute) {
  const { parameters = [], ...doc } = route.doc;
  return {
    ...doc,
    security: route.access.kind === "public" ? [] : [{ apiKey: [] }],
    parameters: [...pathParameters(route.path), ...parameters],
  };
}

/** A REST route: from its schemas, with the errors every route can meet. */
function operationRouteDoc(route: Route) {
  const queryParams = Object.entries(route.schemas?.query?.shape ?? {}).map(([name, schema]) => {
    const s = schema as z.ZodType;
    return {
      name,
      in: "query",
      required: !s.safeParse(undefined).success,
      schema: jsonSchema(s),
      description: s.description,
    };
  });
  const status = String(route.status ?? 200);
  const success =
    route.status === 202 || route.status === 204
      ? { description: "Accepted; no body." }
      : {
          description: "Success.",
          content: {
            [route.contentType ?? "application/json"]: {
              schema: route.schemas?.response ? jsonSchema(route.schemas.response) : {},
            },
          },
        };
  // Every route can meet malformed input (broken %-encoding, NUL in a value): 400; a route
  // with a body, one over VEXIL_MAX_BODY_BYTES: 413, one not sent as JSON: 415.
  const hasBody = route.method !== "GET" && route.method !== "DELETE";
  const errorStatuses = [
    ...new Set([400, 401, ...(route.errors ?? [400, 403, 404]), ...(hasBody ? [413, 415] : [])]),
  ].sort();
  return {
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    deprecated: route.deprecated || undefined,
    operationId: operationId(route),
    security: [{ apiKey: [] }],
    parameters: [...pathParameters(route.path), ...queryParams],
    requestBody: route.schemas?.body ? jsonRequestBody(jsonSchema(route.schemas.body)) : undefined,
    responses: {
      [status]: success,
      ...Object.fromEntries(
        errorStatuses.map((s) => [String(s), errorResponseDoc(ERROR_TEXT[s] ?? "Error.")]),
      ),
    },
  };
}
