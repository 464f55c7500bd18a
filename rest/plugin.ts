import type { Plugin } from "graphql-yoga";
import type { AppScope } from "../src/context.ts";
import { bodyReader, type RouteTable } from "../src/http/route-table.ts";
import { sdkCaller } from "../src/modules/client-features/sdk-credential.write.ts";
import { operationRunner } from "./operation.ts";
import { isOperationRoute, type TableRoute } from "./table-route.ts";

/**
 * The one HTTP plugin of every route but /graphql: looks the request up in the route table
 * (rest/table.ts), checks who calls before anything is read, gives the route a body reader
 * bounded by its limit, and answers errors in the route's surface's shape. A path no surface
 * owns goes to `otherwise` (the web UI's pages, src/http/ui.ts), then to yoga (/graphql, its 404).
 */
export function routeTablePlugin(
  deps: AppScope,
  table: RouteTable<TableRoute>,
  otherwise: (request: Request, url: URL) => Promise<Response | null> = async () => null,
): Plugin<Record<string, unknown>> {
  const operations = operationRunner(deps);

  async function serve(
    route: TableRoute,
    request: Request,
    url: URL,
    params: Record<string, string>,
    serverContext: object,
    Response: typeof globalThis.Response,
  ): Promise<Response> {
    const body = bodyReader(request, route.bodyLimit ?? deps.config.http.maxBodyBytes);
    if (isOperationRoute(route)) {
      return operations.run(route, { request, url, params, serverContext, text: body.text });
    }
    const { access } = route;
    const caller = access.kind === "sdk" ? await sdkCaller(deps, request, access.tokens) : undefined;
    const response = await route.handle({ request, Response, url, params, serverContext, caller, ...body });
    // HEAD is a GET route's answer without its body (its headers kept).
    if (request.method !== "HEAD" || response.body === null) return response;
    return new Response(null, { status: response.status, headers: response.headers });
  }

  return {
    onYogaInit({ yoga }) {
      operations.setYoga(yoga);
    },
    async onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      const found = table.lookup(request, url.pathname);
      if (!found) {
        const page = await otherwise(request, url);
        if (page) endResponse(page);
        return;
      }
      try {
        endResponse(
          found.kind === "route"
            ? await serve(found.route, request, url, found.params, serverContext, fetchAPI.Response)
            : found.response(),
        );
      } catch (error) {
        const answer = found.surface.errorResponse?.(error, request);
        if (!answer) throw error;
        endResponse(answer);
      }
    },
  };
}
