import type { Config } from "../config.ts";

/** Who may call the paths under `prefix` from a page of another origin, and whether with cookies. */
export type CorsRule = { prefix: string; origins: string[]; credentials: boolean };

/**
 * CORS per path prefix, most specific first. The admin surfaces (GraphQL, `/api/admin`,
 * `/auth`) honour a session cookie, so only the configured origins (VEXIL_CORS_ORIGINS) get
 * credentialed answers; by default none but the server's own. The frontend API (browser SDKs
 * holding a frontend token, no cookies) and OFREP (OpenFeature's web provider, likewise) keep
 * their own list, FRONTEND_API_ORIGINS, without credentials.
 */
export function corsRules(config: Config): CorsRule[] {
  return [
    { prefix: "/api/frontend", origins: config.auth.frontendApiOrigins, credentials: false },
    { prefix: "/ofrep", origins: config.auth.frontendApiOrigins, credentials: false },
    { prefix: "/", origins: config.http.corsOrigins, credentials: true },
  ];
}

type CorsAnswer = false | { origin: string | string[]; credentials: boolean };

/**
 * yoga's `cors` option: the CORS answer to one request. An Origin that the matching rule lists
 * (or the server's own, from VEXIL_URL or the request) is echoed, with credentials if the rule
 * allows them; `*` in a list lets any origin read without credentials; any other origin gets
 * no CORS header at all, so its page cannot read the answer.
 */
export function corsPolicy(config: Config): (request: Request) => CorsAnswer {
  const rules = corsRules(config);
  const publicOrigin = new URL(config.publicUrl).origin;
  return (request) => {
    const origin = request.headers.get("origin");
    if (!origin) return false;
    const url = new URL(request.url);
    const rule = rules.find((r) => underPrefix(url.pathname, r.prefix));
    if (!rule) return false;
    if (origin === publicOrigin || origin === url.origin || rule.origins.includes(origin)) {
      return { origin: [origin], credentials: rule.credentials };
    }
    if (rule.origins.includes("*")) return { origin: "*", credentials: false };
    return false;
  };
}

function underPrefix(path: string, prefix: string): boolean {
  if (prefix === "/") return true;
  return path === prefix || path.startsWith(`${prefix}/`);
}
