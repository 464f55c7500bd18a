import type { ResultOf, TadaDocumentNode } from "gql.tada";
import { print } from "graphql";
import type { z } from "zod";
import type { HttpMethod } from "../src/http/route-table.ts";

/** What a route sees of the HTTP request: path params, query string and parsed JSON body. */
export type RestRequest = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
};

export type { HttpMethod };

/**
 * A REST route as data: which GraphQL operation it runs, how the request becomes variables,
 * and how the result becomes the response body. Schemas serve the OpenAPI document; the
 * GraphQL layer does the validating, so REST and GraphQL can never disagree. One exception, on
 * keys only: a strict object in the body schema (`z.strictObject`, where Unleash's schema has
 * `additionalProperties: false`) refuses fields it does not list (400), as Unleash does.
 */
export type Route = {
  method: HttpMethod;
  /** Express-style path with `:name` parameters. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  deprecated?: boolean;
  /** A GraphQL document with exactly one operation. */
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

/**
 * A route whose document is typed (`graphql` of rest/graphql.ts): `respond` gets the operation's
 * data with the schema's types, so its mapping is type-checked without casts. `variables` stay
 * raw values, as for every route: GraphQL validates them and names the REST field (rest/errors.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: any typed document
export type TypedRoute<D extends TadaDocumentNode<any, any>> = Omit<Route, "document" | "respond"> & {
  document: D;
  respond?: (data: ResultOf<D>, req: RestRequest) => unknown;
};

// biome-ignore lint/suspicious/noExplicitAny: any typed document
export function typedRoute<D extends TadaDocumentNode<any, any>>(route: TypedRoute<D>): Route {
  const { document, respond, ...rest } = route;
  return {
    ...rest,
    document: print(document),
    // The data is the document's result: the plugin ran exactly this document.
    respond: respond && ((data, req) => respond(data as ResultOf<D>, req)),
  };
}
