import type { ResultOf, TadaDocumentNode, VariablesOf } from "gql.tada";
import { print } from "graphql";
import type { z } from "zod";
import type { HttpMethod } from "../src/http/route-table.ts";
import { bodyFields, bodyRecord, objectBody } from "./body-fields.ts";
import { firstFieldSchema } from "./result-schema.ts";
import { integerParam, intParam, single } from "./search-params.ts";
import { isRecord } from "./shape.ts";

/** What a route sees of the HTTP request: path params, query string and parsed JSON body. */
export type RestRequest = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
};

export type { HttpMethod };

/**
 * A REST route as the table runs it: which GraphQL operation it runs, how the request becomes
 * variables, and how the result becomes the response body. Routes are written with `typedRoute`,
 * which checks them against the schema and compiles them to this. Schemas serve the OpenAPI
 * document; the GraphQL layer does the validating, so REST and GraphQL can never disagree. One
 * exception, on keys only: a strict object in the body schema (`z.strictObject`, where Unleash's
 * schema has `additionalProperties: false`) refuses fields it does not list (400), as Unleash does.
 */
export type Route = {
  method: HttpMethod;
  /** Express-style path with `:name` parameters. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  deprecated?: boolean;
  /** A GraphQL document with exactly one operation (and the fragments it spreads). */
  document: string;
  variables?: (req: RestRequest) => Record<string, unknown>;
  /**
   * Where a variable's value sits in the request body, for messages that name the caller's field
   * (`""`: the body itself, e.g. a JSON Patch list). Default: an input-object variable (`$input`)
   * holds the body's fields; any other variable is the body field of its name.
   */
  bodyPaths?: Record<string, string>;
  /** Maps the operation's `data` to the response body (default: the first root field's value). */
  respond?: (data: Record<string, unknown>, req: RestRequest) => unknown;
  /** Success status (default 200). 202/204 send no body. */
  status?: number;
  /** Send no body whatever the status (Unleash answers several 200s empty). */
  emptyBody?: boolean;
  /** The media type of a text answer (e.g. text/csv): `respond` then returns the text itself. */
  contentType?: string;
  /** Extra response headers (e.g. Deprecation). */
  headers?: Record<string, string>;
  schemas?: {
    query?: z.ZodObject;
    body?: z.ZodType;
    response?: z.ZodType;
  };
  /** Largest body it reads (default: VEXIL_MAX_BODY_BYTES). */
  bodyLimit?: number;
  /** Error statuses this route documents besides 401 (default: 400, 403, 404). */
  errors?: number[];
};

export function defineRoutes(routes: Route[]): Route[] {
  return routes;
}

/** The `:name` parameters of an Express-style path (any name when the path is not a literal type). */
export type PathParams<P extends string> = string extends P
  ? string
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParams<`/${Rest}`>
    : P extends `${string}:${infer Name}`
      ? Name
      : never;

/**
 * Where one GraphQL variable's value comes from, declared (a route's `variables` map):
 * - `"path.<param>"`: a path parameter; `"path.<param>:int"`: one holding an integer (400 naming it otherwise);
 * - `"query.<name>"`: a query parameter (its first value; undefined when absent); `"query.<name>:int"`:
 *   a non-negative integer (400 otherwise);
 * - `"body"`: the JSON body as sent; `"body:object"`: the body, which must be a JSON object (400 otherwise);
 * - `"body.<field>"`: one field of the body as sent (undefined when absent, or when the body is no object);
 *   `"body.<field>?"`: the same, but the variable is left out when the body has no such field (GraphQL
 *   then says it is required, or leaves the argument as it was);
 * - `{ bodyFields: [...] }`: an object of the listed body fields the body has, as sent (an input's fields);
 * - `true`, `false`, a number or `null`: that value;
 * - a function of the request, where the value takes logic (a default, a choice, a reshaping).
 * Values go to GraphQL raw: it validates them and a refusal names the REST field (rest/errors.ts).
 * Which sources a variable accepts follows its GraphQL type: a path or query string only where a
 * string fits, `:int` only where a number does, `bodyFields` only for an input object, its names
 * among the input's fields.
 */
export type VariableSource<T, P extends string> =
  | "body"
  | "body:object"
  | `body.${string}`
  | ((req: RestRequest) => unknown)
  | (string extends NonNullable<T> ? `path.${PathParams<P>}` | `query.${string}` : never)
  | (number extends NonNullable<T> ? `path.${PathParams<P>}:int` | `query.${string}:int` : never)
  | (NonNullable<T> extends readonly unknown[]
      ? never
      : NonNullable<T> extends object
        ? { bodyFields: readonly (keyof NonNullable<T> & string)[] }
        : never)
  | Extract<T, boolean | number | null>;

/** A route's variables declared: each of the document's variables (the required ones at least) and its source. */
export type VariableMap<V, P extends string> = { [K in keyof V]: VariableSource<V[K], P> };

// biome-ignore lint/suspicious/noExplicitAny: any typed document
type AnyDocument = TadaDocumentNode<any, any>;

/**
 * A route whose document is typed (`graphql` of rest/graphql.ts, gql.tada): `respond` gets the
 * operation's data with the schema's types, so its mapping is type-checked without casts;
 * `variables` is a map of the document's variables to where each comes from (`VariableSource`),
 * or, where several take logic together, a function giving them all.
 */
export type TypedRoute<D extends AnyDocument, P extends string> = Omit<
  Route,
  "path" | "document" | "variables" | "respond"
> & {
  path: P;
  document: D;
  variables?:
    | VariableMap<VariablesOf<D>, P>
    | ((req: RestRequest) => { [K in keyof VariablesOf<D>]: unknown });
  respond?: (data: ResultOf<D>, req: RestRequest) => unknown;
};

export function typedRoute<D extends AnyDocument, const P extends string>(route: TypedRoute<D, P>): Route {
  const { document, variables, respond, ...rest } = route;
  return {
    ...rest,
    document: print(document),
    variables: compileVariables(route, variables),
    // The data is the document's result: the plugin ran exactly this document.
    respond: respond && ((data, req) => respond(data as ResultOf<D>, req)),
    schemas: { ...rest.schemas, response: rest.schemas?.response ?? derivedResponse(route) },
  };
}

/**
 * The response schema of a route that answers its first root field as GraphQL gives it (no
 * `respond`) and declares none: that field's type, from the document. A route without a body has none.
 */
function derivedResponse(route: TypedRoute<AnyDocument, string>): z.ZodType | undefined {
  const bodyless = route.emptyBody || route.status === 202 || route.status === 204 || route.contentType;
  return route.respond || bodyless ? undefined : firstFieldSchema(route.document);
}

type Read = (req: RestRequest) => unknown;
/** What a reader gives for a variable to leave out. */
const ABSENT = Symbol("absent");
const SOURCE = /^(?:(path|query)\.([^:]+?)(:int)?|body(?:\.([^?]+)(\?)?|(:object))?)$/;

function compileVariables(
  route: Pick<Route, "method" | "path">,
  variables: Record<string, unknown> | ((req: RestRequest) => Record<string, unknown>) | undefined,
): Route["variables"] {
  if (variables === undefined || typeof variables === "function") return variables;
  const readers = Object.entries(variables).map(
    ([name, source]) => [name, readerOf(route, name, source)] as const,
  );
  // In the map's order: a refusal (a path parameter that is no integer) is the first one's.
  return (req) =>
    Object.fromEntries(
      readers.map(([name, read]) => [name, read(req)] as const).filter(([, value]) => value !== ABSENT),
    );
}

/** How a route reads one variable from the request; a source that cannot be read is a bug in the route. */
function readerOf(route: Pick<Route, "method" | "path">, name: string, source: unknown): Read {
  const where = `${route.method} ${route.path}, variable $${name}`;
  if (typeof source === "function") return (req) => source(req);
  if (source === null || typeof source === "boolean" || typeof source === "number") return () => source;
  if (isRecord(source) && Array.isArray(source.bodyFields)) {
    const keys = source.bodyFields.map(String);
    return (req) => bodyFields(req.body, keys);
  }
  const match = typeof source === "string" ? SOURCE.exec(source) : null;
  if (!match) throw new Error(`${where}: unknown source ${JSON.stringify(source)}`);
  const [, from, param = "", int, field, ifSent, object] = match;
  if (from === "path") {
    if (!route.path.split("/").includes(`:${param}`))
      throw new Error(`${where}: no path parameter :${param}`);
    return int ? (req) => intParam(req, param) : (req) => req.params[param];
  }
  if (from === "query")
    return int ? (req) => integerParam(req.query, param) : (req) => single(req.query, param);
  if (object) return objectBody;
  if (field === undefined) return (req) => req.body;
  const absent = ifSent ? ABSENT : undefined;
  return (req) => fieldOf(req.body, field, absent);
}

/** A body field as sent; a body that is no object has none (own fields only: never Object's members). */
function fieldOf(body: unknown, field: string, absent: unknown): unknown {
  const record = bodyRecord(body);
  return Object.hasOwn(record, field) ? record[field] : absent;
}
