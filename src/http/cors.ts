import type { Config } from "../config.ts";
import type { AppScope } from "../context.ts";

/** Who may call the paths under `prefix` from a page of another origin, and whether with cookies. */
export type CorsRule = { prefix: string; origins: string[]; credentials: boolean };

/**
 * CORS per path prefix, most specific first. The admin surfaces (GraphQL, `/api/admin`,
 * `/auth`) honour a session cookie, so only the configured origins (VEXIL_CORS_ORIGINS) get
 * credentialed answers; by default none but the server's own. The frontend API (browser SDKs
 * holding a frontend token, no cookies) and OFREP (OpenFeature's web provider, likewise) keep
 * their own list (`frontendOrigins`: the stored setting POST /api/admin/ui-config/cors sets, else
 * FRONTEND_API_ORIGINS), never with credentials.
 */
export function corsRules(config: Config, frontendOrigins: string[]): CorsRule[] {
  return [
    { prefix: "/api/frontend", origins: frontendOrigins, credentials: false },
    { prefix: "/ofrep", origins: frontendOrigins, credentials: false },
    { prefix: "/", origins: config.http.corsOrigins, credentials: true },
  ];
}

const FRONTEND_PREFIXES = ["/api/frontend", "/ofrep"];

type CorsAnswer = false | { origin: string | string[]; credentials: boolean };

/**
 * yoga's `cors` option: the CORS answer to one request. An Origin that the matching rule lists
 * (or the server's own, from VEXIL_URL or the request) is echoed, with credentials if the rule
 * allows them; `*` in a list lets any origin read without credentials; any other origin gets
 * no CORS header at all, so its page cannot read the answer.
 */
export function corsPolicy(
  deps: Pick<AppScope, "config" | "services">,
): (request: Request) => Promise<CorsAnswer> {
  const { config } = deps;
  const publicOrigin = new URL(config.publicUrl).origin;
  return async (request) => {
    const origin = request.headers.get("origin");
    if (!origin) return false;
    const url = new URL(request.url);
    const frontend = FRONTEND_PREFIXES.some((p) => underPrefix(url.pathname, p));
    const rules = corsRules(config, frontend ? await deps.services.frontendOrigins.get() : []);
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
