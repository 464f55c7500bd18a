import { z } from "zod";
import { objectBody } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

/** Unleash's maintenance mode: while on, every change but turning it off answers 503. */
export const maintenanceRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/maintenance",
    tag: "Maintenance",
    summary: "Whether maintenance mode is on (admins only)",
    document: graphql("query Maintenance { maintenanceMode }"),
    respond: (data) => ({ enabled: data.maintenanceMode }),
    schemas: { response: z.object({ enabled: z.boolean() }) },
    errors: [403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/maintenance",
    tag: "Maintenance",
    summary: "Turn maintenance mode on or off (admins only)",
    description:
      "Body `{enabled}`. 204. While on, writes (REST and GraphQL mutations) answer 503 `MaintenanceModeError`; reads, SDK traffic and login keep working.",
    status: 204,
    document: graphql(
      "mutation SetMaintenance($enabled: Boolean!) { setMaintenanceMode(enabled: $enabled) }",
    ),
    // The body must be an object (400 otherwise), as Unleash's maintenanceSchema.
    variables: { enabled: (req) => objectBody(req).enabled },
    schemas: { body: z.object({ enabled: z.boolean() }) },
    errors: [400, 403],
  }),
]);
