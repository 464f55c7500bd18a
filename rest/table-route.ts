import type { Access, HandlerRoute, Surface } from "../src/http/route-table.ts";
import type { Route } from "./route.ts";

/** A route of the table: a REST route running a GraphQL operation, or a route with its own handler. */
export type TableRoute = Route | HandlerRoute;

/** `/api/admin/**`: Unleash's admin API, each route a GraphQL operation (rest/operation.ts). */
export const ADMIN: Surface = { name: "rest", prefixes: ["/api/admin"], decodesPath: true };
const ADMIN_ACCESS: Access = { kind: "admin" };

export function isOperationRoute(route: TableRoute): route is Route {
  return "document" in route;
}

export const surfaceOf = (route: TableRoute): Surface => (isOperationRoute(route) ? ADMIN : route.surface);
export const accessOf = (route: TableRoute): Access =>
  isOperationRoute(route) ? ADMIN_ACCESS : route.access;
