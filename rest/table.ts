import type { Config } from "../src/config.ts";
import type { AppScope } from "../src/context.ts";
import { graphiqlRoutes } from "../src/http/graphiql.ts";
import { healthRoutes } from "../src/http/health.ts";
import { type HandlerRoute, RouteTable } from "../src/http/route-table.ts";
import { loginRoutes } from "../src/modules/access/login.endpoints.ts";
import { sdkRoutes } from "../src/modules/client-api/client-api.endpoints.ts";
import { edgeRoutes } from "../src/modules/client-api/edge.endpoints.ts";
import { inviteRoutes } from "../src/modules/invites/invites.endpoints.ts";
import { ofrepRoutes } from "../src/modules/ofrep/ofrep.endpoints.ts";
import { avatarRoutes } from "../src/modules/users/avatars.endpoints.ts";
import { passwordResetRoutes } from "../src/modules/users/password-reset.endpoints.ts";
import { docsRoutes } from "./docs-page.ts";
import { openApiDocument } from "./openapi.ts";
import type { Route } from "./route.ts";
import { allRoutes } from "./routes/index.ts";
import { accessOf, surfaceOf, type TableRoute } from "./table-route.ts";

/**
 * Every HTTP route but /graphql, in one table (docs/architecture.md, "HTTP routes"): the REST
 * routes of rest/routes/, then each surface's routes from the module that serves it.
 */
export function routeTable(
  deps: AppScope,
  options: { restRoutes?: Route[]; ready?: () => Promise<void>; ui?: HandlerRoute[] } = {},
): RouteTable<TableRoute> {
  let document: unknown;
  const routes: TableRoute[] = [
    ...(options.restRoutes ?? allRoutes),
    ...sdkRoutes(deps),
    ...ofrepRoutes(deps),
    ...edgeRoutes(deps),
    ...loginRoutes(deps),
    ...passwordResetRoutes(deps),
    ...inviteRoutes(deps),
    ...healthRoutes(options.ready),
    ...avatarRoutes,
    ...graphiqlRoutes,
    ...(options.ui ?? []),
    ...docsRoutes(() => {
      document ??= openApiDocument(table, deps);
      return document;
    }),
  ];
  const table = new RouteTable(routes, (route) => ({ surface: surfaceOf(route), access: accessOf(route) }));
  return table;
}

/**
 * The OpenAPI document of the whole table, for tools without a running app (scripts/): the route
 * factories read only the configuration while the table is built.
 */
export function tableOpenApiDocument(config: Config) {
  const deps = { config } as AppScope;
  return openApiDocument(routeTable(deps), deps);
}
