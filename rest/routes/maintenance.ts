import { z } from "zod";
import { objectBody } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";

/** Unleash's maintenance mode: while on, every change but turning it off answers 503. */
export const maintenanceRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/maintenance",
    tag: "Maintenance",
    summary: "Whether maintenance mode is on (admins only)",
    document: "query Maintenance { maintenanceMode }",
    respond: (data) => ({ enabled: data.maintenanceMode }),
    schemas: { response: z.object({ enabled: z.boolean() }) },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/admin/maintenance",
    tag: "Maintenance",
    summary: "Turn maintenance mode on or off (admins only)",
    description:
      "Body `{enabled}`. 204. While on, writes (REST and GraphQL mutations) answer 503 `MaintenanceModeError`; reads, SDK traffic and login keep working.",
    status: 204,
    document: "mutation SetMaintenance($enabled: Boolean!) { setMaintenanceMode(enabled: $enabled) }",
    variables: (req) => ({ enabled: objectBody(req).enabled }),
    schemas: { body: z.object({ enabled: z.boolean() }) },
    errors: [400, 403],
  },
]);
