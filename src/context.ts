import { randomUUID } from "node:crypto";
import type { Config } from "./config.ts";
import type { Db } from "./db/database.ts";
import type { EventBus } from "./events/bus.ts";
import type { EventHooks } from "./events/hooks.ts";
import { requestIdOf } from "./http/request-log.ts";
import { createLoaders, type Loaders } from "./loaders.ts";
import { tokenFromHeader } from "./modules/access/credentials.logic.ts";
import { resolveToken } from "./modules/access/credentials.write.ts";
import type { LoginLimiter } from "./modules/access/login-limits.cache.ts";
import type { Principal } from "./modules/access/principal.types.ts";
import {
  CSRF_HEADER,
  cookieValue,
  isJsonFromAllowedOrigin,
  resolveSession,
  SESSION_COOKIE,
} from "./modules/access/sessions.write.ts";
import type { DirectNext } from "./modules/live/shared-results.plugin.ts";
import type { AppServices } from "./services.ts";
import type { ChangeKinds } from "./shared/change-kinds.ts";
import type { DomainError } from "./shared/errors.ts";
import type { Logger } from "./shared/logger.ts";

/**
 * What an app is built from: long-lived dependencies made, and closed, by its caller (serve.ts,
 * a test): the database, the bus, the login limiter.
 */
export type AppDeps = {
  config: Config;
  db: Db;
  bus: EventBus;
  logger: Logger;
  /** Injectable clock, so tests can control time (schedules, expiry). */
  now: () => Date;
  /** Password-login throttle shared by the nodes (default: this process's memory). */
  loginLimiter?: LoginLimiter;
  /**
   * Tests: every REST answer is checked against its route's declared response schema, and one
   * that does not match is a 500 naming the difference (the OpenAPI document cannot drift).
   */
  checkRestResponses?: boolean;
};

/**
 * Everything app-scoped: the dependencies createApp was given and the services it built from
 * them (src/services.ts). Plugins, jobs and every request's context reach the same ones.
 */
export type AppScope = AppBase & { services: AppServices };

/**
 * What createApp is given and what it adds before building the services: what modules do in
 * the transaction of every event the app's writes record (src/event-hooks.ts), and the change
 * kinds of modules above change-requests (src/change-kinds.ts), never given by a caller, so no
 * app is built without them.
 */
export type AppBase = AppDeps & { eventHooks: EventHooks; changeKinds: ChangeKinds };

/** Per-request (or per-WebSocket-operation) context: who is calling, and request-scoped loaders. */
export type Context = AppScope & {
  requestId: string;
  principal: Principal | null;
  /** Why there is no principal when credentials were sent but refused (e.g. CSRF); default 401. */
  authProblem?: DomainError;
  loaders: Loaders;
  /** Set for graphql-ws operations: sends a prebuilt `next` payload (see shared-results.plugin.ts). */
  directNext?: DirectNext;
  /**
   * Set by shared-results.plugin.ts on a subscription that needs its context no more once it is
   * subscribed (its events are executed with a context shared by its key): graphql-ws lets the
   * context go then (src/http-server.ts).
   */
  sharesResults?: boolean;
  /**
   * Whether the credential this context was made from still stands for the same caller with
   * the same permissions (not deleted, revoked, expired, logged out, demoted or promoted since):
   * asked again by long-lived operations. The checks of one sweep share `fresh`: one read per
   * set of credentials, however many subscriptions were opened with them.
   */
  credentialStillValid: (fresh?: FreshPrincipals) => Promise<boolean>;
};

/** Principals read afresh during one sweep of checks, by credentials (credentialStillValid). */
export type FreshPrincipals = Map<string, Promise<Principal | null>>;

/** What a request carries that can identify the caller. */
export type Credentials = {
  authorization?: string | null;
  cookie?: string | null;
  method?: string;
  csrfHeader?: string | null;
  /**
   * A JSON body whose Origin, if sent, is Vexil's own or a configured one: no cross-site page
   * can send that (a form cannot send JSON; a script of another origin needs a CORS preflight
   * only those origins pass), so a script's session needs no CSRF header for it.
   */
  jsonFromAllowedOrigin?: boolean;
};

export type Caller = {
  principal: Principal | null;
  problem?: DomainError;
  /** Without another credential: whether an X-API-Key header holds an API token in force (SDK APIs). */
  apiKeyWorks?: boolean;
};
const callerByRequest = new WeakMap<Request, Promise<Caller>>();

/**
 * Who sends this HTTP request, resolved once however often it is asked (the GraphQL gate asks
 * before parsing, the context after validation).
 */
export function callerOfRequest(deps: AppScope, request: Request): Promise<Caller> {
  let caller = callerByRequest.get(request);
  if (!caller) {
    caller = resolvePrincipal(deps, credentialsOfRequest(request, deps.config));
    callerByRequest.set(request, caller);
  }
  return caller;
}

/**
 * The caller of a request known by its headers alone, before its body is read
 * (src/http/credential-first.ts): as callerOfRequest, and whether an X-API-Key works.
 */
export function headerCaller(deps: AppScope, request: Request): Promise<Caller> {
  return callerOfRequest(deps, request).then(async (caller) => {
    const apiKey = tokenFromHeader(request.headers.get("x-api-key"));
    if (caller.principal || !apiKey || request.headers.has("authorization")) return caller;
    return { ...caller, apiKeyWorks: (await deps.services.tokens.resolve(apiKey)) !== null };
  });
}

/** Makes `request` reuse a caller already resolved from the same headers (headerCaller). */
export function adoptCaller(request: Request, caller: Promise<Caller>): void {
  if (!callerByRequest.has(request)) callerByRequest.set(request, caller);
}

/** The Authorization header, or the session cookie plus the CSRF header (or a same-site JSON body). */
export function credentialsOfRequest(request: Request, config: Config): Credentials {
  const headers = request.headers;
  return {
    authorization: headers.get("authorization"),
    cookie: headers.get("cookie"),
    method: request.method,
    csrfHeader: headers.get(CSRF_HEADER),
    jsonFromAllowedOrigin: isJsonFromAllowedOrigin(request, config),
  };
}

/**
 * Builds the context. The `Authorization` header (API token or PAT) wins; without it, a
 * session cookie from `POST /auth/simple/login` is used. Invalid credentials yield no principal.
 * A plain string is taken as the Authorization value (graphql-ws connection params); an HTTP
 * request's caller is resolved once (callerOfRequest).
 */
export async function createContext(
  deps: AppScope,
  credentials: Credentials | { request: Request } | string | null | undefined,
): Promise<Context> {
  const plain: Credentials =
    typeof credentials === "object" && credentials !== null
      ? "request" in credentials
        ? credentialsOfRequest(credentials.request, deps.config)
        : credentials
      : { authorization: credentials };
  const { principal, problem } =
    typeof credentials === "object" && credentials !== null && "request" in credentials
      ? await callerOfRequest(deps, credentials.request)
      : await resolvePrincipal(deps, plain);
  return {
    ...deps,
    requestId:
      typeof credentials === "object" && credentials !== null && "request" in credentials
        ? requestIdOf(credentials.request)
        : randomUUID(),
    principal,
    authProblem: problem,
    loaders: createLoaders(deps.db, principal, deps.now),
    credentialStillValid: async (fresh) => {
      if (!principal) return false;
      const key = credentialsKey(plain);
      let read = fresh?.get(key);
      if (!read) {
        read = resolvePrincipal(deps, plain, { fresh: true }).then((resolved) => resolved.principal);
        fresh?.set(key, read);
      }
      const now = await read;
      return now !== null && sameCaller(now, principal);
    },
  };
}

/** Credentials that resolve to the same principal have the same key. */
function credentialsKey(c: Credentials): string {
  return [c.authorization, c.cookie, c.method, c.csrfHeader, c.jsonFromAllowedOrigin].join("\u0000");
}

/** The same caller with the same permissions: a stream opened before a demotion must not go on. */
function sameCaller(a: Principal, b: Principal): boolean {
  return (
    a.kind === b.kind &&
    a.userId === b.userId &&
    a.tokenId === b.tokenId &&
    a.rootRole === b.rootRole &&
    a.environment === b.environment &&
    sameItems(a.projects, b.projects) &&
    sameItems(
      a.grants.map((g) => `${g.permission}|${g.project}|${g.environment}`),
      b.grants.map((g) => `${g.permission}|${g.project}|${g.environment}`),
    )
  );
}

function sameItems(a: string[], b: string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/**
 * What a graphql-ws connection carries: an API token in `connectionParams.Authorization`, or
 * (the web UI) the session cookie of the upgrade request with the session's CSRF token in
 * `connectionParams.csrfToken`. The CSRF token is required because a page of another site can
 * open a WebSocket that carries Vexil's cookie, but cannot read the token.
 */
export function socketCredentials(
  connectionParams: Record<string, unknown> | undefined,
  upgradeCookie: string | undefined,
): Credentials {
  const authorization = connectionParams?.Authorization ?? connectionParams?.authorization;
  if (typeof authorization === "string") return { authorization };
  const csrf = connectionParams?.csrfToken;
  return {
    cookie: upgradeCookie ?? null,
    method: "POST",
    csrfHeader: typeof csrf === "string" ? csrf : null,
  };
}

/** Who a set of credentials stands for (null when they are missing, invalid or refused). */
export async function principalOf(deps: AppScope, creds: Credentials): Promise<Principal | null> {
  return (await resolvePrincipal(deps, creds)).principal;
}

async function resolvePrincipal(
  deps: AppScope,
  creds: Credentials,
  options: { fresh?: boolean } = {},
): Promise<{ principal: Principal | null; problem?: DomainError }> {
  const secret = tokenFromHeader(creds.authorization);
  if (secret) {
    // `fresh`: read from the database, not the token memory (revocation checks).
    const principal = options.fresh
      ? await resolveToken(deps.db, secret, deps.now())
      : await deps.services.tokens.resolve(secret);
    return { principal };
  }
  const session = cookieValue(creds.cookie, SESSION_COOKIE);
  if (!session) return { principal: null };
  return resolveSession(
    deps.db,
    session,
    {
      method: creds.method ?? "GET",
      csrfHeader: creds.csrfHeader ?? null,
      jsonFromAllowedOrigin: creds.jsonFromAllowedOrigin ?? false,
    },
    deps.now(),
  );
}
