import type { SdkCaller, SdkKind } from "../modules/client-features/sdk-credential.write.ts";
import { errorResponse } from "../shared/error-response.ts";
import { NotFoundError } from "../shared/errors.ts";
import { parseJsonBody, readBodyText } from "../shared/http-body.ts";
import { isDecodable } from "./path-encoding.ts";
import { requestIdOf } from "./request-log.ts";
import { RouteTrie } from "./route-trie.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route, checked before the body is read (D-15):
 * - `public`: anyone (a probe, login, an asset);
 * - `sdk`: an API token of one of these kinds (the route gets its `caller`);
 * - `admin`: a credential of a person or an admin token: the route's GraphQL operation says
 *   which (the root field's `authScopes`, rest/route-permissions.ts).
 */
export type Access = { kind: "public" } | { kind: "admin" } | { kind: "sdk"; tokens: readonly SdkKind[] };

export const PUBLIC = { kind: "public" } as const satisfies Access;

/**
 * A family of routes that answers errors its own way (REST's `{id, name, message}`, OFREP's
 * `{errorCode, errorDetails}`). A path under one of its `prefixes` that no route takes is its
 * 404; a known path asked with another method its 405.
 */
export type Surface = {
  name: string;
  /** Paths it owns: the prefix itself and what lies below it (`/api/admin`, `/api/admin/...`). */
  prefixes: readonly string[];
  /**
   * Path parameters are percent-decoded, and a path that cannot be is a 400 before anything
   * else; otherwise parameters come raw and the route decodes them.
   */
  decodesPath: boolean;
  /** HEAD is answered by the GET route (the body dropped), e.g. probes and files. */
  answersHead?: boolean;
  /** Its 404 (default: the REST error body, NotFoundError). */
  notFound?(request: Request, path: string): Response;
  /** Its 405 (default: the REST error body, MethodNotAllowed, with Allow). */
  methodNotAllowed?(request: Request, allow: string): Response;
  /** Its answer to an error thrown while serving, or null for the REST error body (guard.ts). */
  errorResponse?(error: unknown, request: Request): Response | null;
};

/** What a handler is given: the request, its path parameters, the checked caller and the body. */
export type RouteRequest = {
  request: Request;
  /**
   * The HTTP adapter's Response class: a body of bytes given to it is written to the socket as
   * it is, where the global Response copies it and streams it (prebuilt SDK documents use it).
   */
  Response: typeof Response;
  url: URL;
  params: Record<string, string>;
  serverContext: object;
  /** The caller of an `sdk` route (checked by the table's plugin); undefined otherwise. */
  caller?: SdkCaller;
  /** The body's text, read once within the route's limit (413 past it; "" when none). */
  text(): Promise<string>;
  /** The body as JSON (parseJsonBody), undefined when empty. */
  json(): Promise<unknown>;
};

/** How the OpenAPI document describes a route (an OpenAPI operation object, without the path's parameters). */
export type OperationDoc = {
  summary: string;
  description?: string;
  tags: string[];
  operationId: string;
  deprecated?: boolean;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

/** A route served by code of its own (SDK, OFREP, Edge, login, probes, files). */
export type HandlerRoute = {
  method: HttpMethod;
  /** `:name` parameters; `*name` last for the rest of the path. */
  path: string;
  surface: Surface;
  /** `admin` routes are GraphQL operations, whose fields check the caller (rest/operation.ts). */
  access: Exclude<Access, { kind: "admin" }>;
  /** Largest body it reads (default: VEXIL_MAX_BODY_BYTES). */
  bodyLimit?: number;
  doc: OperationDoc;
  handle(req: RouteRequest): Promise<Response>;
};

/** What the table answers for a method and path. */
export type Lookup<R> =
  | { kind: "route"; route: R; params: Record<string, string>; surface: Surface }
  /** A 400 (undecodable path), 404 or 405 in the surface's shape, built when answered. */
  | { kind: "refusal"; surface: Surface; response: () => Response }
  | null;

type Entry<R> = { route: R; method: HttpMethod; surface: Surface; access: Access };

/**
 * The routes of every HTTP surface but /graphql, compiled into one trie: a lookup costs the
 * path's length whatever the number of routes. Several routes may match one path (a literal and
 * a parameter): the first in table order with the request's method wins, as path-to-regexp
 * routers tried them.
 */
export class RouteTable<R extends { method: HttpMethod; path: string }> {
  readonly #trie = new RouteTrie<Entry<R>>();
  readonly #surfaces: Surface[];

  constructor(
    readonly routes: readonly R[],
    describe: (route: R) => { surface: Surface; access: Access },
  ) {
    for (const route of routes)
      this.#trie.add(route.path, { route, method: route.method, ...describe(route) });
    this.#surfaces = [...new Set(routes.map((route) => describe(route).surface))];
  }

  /** Whether `method` and `path` name a public route: its body may be read before any credential. */
  isPublic(method: string, path: string): boolean {
    return this.#trie.match(path).some((m) => m.value.method === method && m.value.access.kind === "public");
  }

  /** The route for `method` and `path`; a 404 or 405 of the surface that owns the path; or null (not ours). */
  lookup(request: Request, path: string): Lookup<R> {
    const owner = this.#surfaces.find((s) => s.prefixes.some((p) => path === p || path.startsWith(`${p}/`)));
    if (owner?.decodesPath && path.includes("%") && !isDecodable(path)) {
      return { kind: "refusal", surface: owner, response: () => undecodable(request) };
    }
    const matches = this.#trie.match(path);
    const method = request.method;
    const hit =
      matches.find((m) => m.value.method === method) ??
      (method === "HEAD"
        ? matches.find((m) => m.value.method === "GET" && m.value.surface.answersHead)
        : undefined);
    if (hit) {
      const { surface, route } = hit.value;
      const params = surface.decodesPath ? decodedParams(hit.params) : hit.params;
      if (params) return { kind: "route", route, params, surface };
      return { kind: "refusal", surface, response: () => undecodable(request) };
    }
    const first = matches[0];
    if (first) {
      const surface = first.value.surface;
      const allow = [...new Set(matches.map((m) => m.value.method))].join(", ");
      return {
        kind: "refusal",
        surface,
        response: () => surface.methodNotAllowed?.(request, allow) ?? methodNotAllowed(request, allow),
      };
    }
    if (!owner) return null;
    return {
      kind: "refusal",
      surface: owner,
      response: () => owner.notFound?.(request, path) ?? notFound(request, path),
    };
  }
}

/** The REST error body of a 404: no route has this path. */
function notFound(request: Request, path: string): Response {
  return errorResponse(
    404,
    "NotFoundError",
    `No such path: ${request.method} ${path}`,
    {},
    requestIdOf(request),
  );
}

/** The REST error body of a 405, with the methods the path takes in Allow. */
function methodNotAllowed(request: Request, allow: string): Response {
  const response = errorResponse(
    405,
    "MethodNotAllowed",
    `${request.method} is not allowed here; use ${allow}`,
    {},
    requestIdOf(request),
  );
  response.headers.set("allow", allow);
  return response;
}

function undecodable(request: Request): Response {
  const message = "The path is not valid percent-encoding (UTF-8).";
  return errorResponse(400, "ValidationError", message, {}, requestIdOf(request));
}

function decodedParams(raw: Record<string, string>): Record<string, string> | null {
  try {
    for (const name in raw) {
      const value = raw[name] as string;
      if (value.includes("%")) raw[name] = decodeURIComponent(value);
    }
    return raw;
  } catch {
    return null;
  }
}

/** The body reader a route gets: read at most once, within `limit`. */
export function bodyReader(request: Request, limit: number): Pick<RouteRequest, "text" | "json"> {
  let text: Promise<string> | undefined;
  const read = () => {
    text ??= readBodyText(request, limit);
    return text;
  };
  return {
    text: read,
    json: async () => {
      const body = await read();
      return body.trim() ? parseJsonBody(body) : undefined;
    },
  };
}

/** A 404 for a handler that finds its parameter names nothing (an unknown file, a malformed id). */
export function noSuchPath(request: Request, url: URL): never {
  throw new NotFoundError(`No such path: ${request.method} ${url.pathname}`);
}
