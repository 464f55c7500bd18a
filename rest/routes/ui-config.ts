import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

export const uiConfigRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/ui-config",
    tag: "Admin UI",
    summary: "Get the UI configuration (spec 4.9)",
    document: graphql(`query UiConfig { uiConfig {
      slogan name version environment billing unleashUrl baseUriPath feedbackUriPath
      disablePasswordAuth emailEnabled maintenanceMode segmentValuesLimit strategySegmentsLimit
      resourceLimits {
        featureFlags featureEnvironmentStrategies constraints constraintValues segments strategySegments
        segmentValues apiTokens projects environments actionSetActions actionSetsPerProject actionSetFilters
        actionSetFilterValues signalEndpoints signalTokensPerEndpoint
      }
      networkViewEnabled frontendApiOrigins flags
      links { value icon href title } authenticationType
      versionInfo { current { oss enterprise } latest isLatest instanceId }
      oidcConfiguredThroughEnv samlConfiguredThroughEnv unleashAIAvailable
    } }`),
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/ui-config/cors",
    tag: "Admin UI",
    summary: "Set the frontend API's CORS origins",
    description:
      "204. `frontendApiOrigins`: `*` or http(s)://host[:port] each (400 otherwise); pages of these origins may call /api/frontend and /ofrep, never with cookies. Stored (replaces FRONTEND_API_ORIGINS); admins only. Event setting-updated.",
    document: graphql(
      `mutation SetFrontendApiOrigins($origins: [String!]!) { setFrontendApiOrigins(origins: $origins) }`,
    ),
    variables: { origins: "body.frontendApiOrigins" },
    bodyPaths: { origins: "frontendApiOrigins" },
    status: 204,
    schemas: { body: z.strictObject({ frontendApiOrigins: z.array(z.string()) }) },
    errors: [400, 403, 415],
  }),
]);
