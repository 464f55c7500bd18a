import type { Route } from "../route.ts";
import { addonRoutes } from "./addons.ts";
import { applicationMetricsRoutes } from "./application-metrics.ts";
import { archiveRoutes } from "./archive.ts";
import { changeRequestRoutes } from "./change-requests.ts";
import { clientMetricsRoutes } from "./client-metrics.ts";
import { contextRoutes } from "./context.ts";
import { dependencyRoutes } from "./dependencies.ts";
import { environmentRoutes } from "./environments.ts";
import { eventRoutes } from "./events.ts";
import { favoriteRoutes } from "./favorites.ts";
import { featureEnvironmentRoutes } from "./feature-environments.ts";
import { featureLinkRoutes } from "./feature-links.ts";
import { featureOperationRoutes } from "./feature-operations.ts";
import { featureTagRoutes } from "./feature-tags.ts";
import { featureRoutes } from "./features.ts";
import { importExportRoutes } from "./import-export.ts";
import { instanceAdminRoutes } from "./instance-admin.ts";
import { inviteRoutes } from "./invites.ts";
import { maintenanceRoutes } from "./maintenance.ts";
import { personalDashboardRoutes } from "./personal-dashboard.ts";
import { playgroundRoutes } from "./playground.ts";
import { projectAdminRoutes } from "./project-admin.ts";
import { projectInsightRoutes } from "./project-insights.ts";
import { projectRoutes } from "./projects.ts";
import { searchRoutes } from "./search.ts";
import { segmentRoutes } from "./segments.ts";
import { strategyRoutes } from "./strategies.ts";
import { strategyDefinitionRoutes } from "./strategy-definitions.ts";
import { tagRoutes } from "./tags.ts";
import { timeTravelRoutes } from "./time-travel.ts";
import { tokenRoutes } from "./tokens.ts";
import { uiConfigRoutes } from "./ui-config.ts";
import { userAccountRoutes } from "./user-account.ts";
import { userRoutes } from "./users.ts";

/** Every REST route; each feature slice contributes its own list. */
export const allRoutes: Route[] = [
  ...eventRoutes,
  ...featureRoutes,
  ...featureOperationRoutes,
  ...archiveRoutes,
  ...dependencyRoutes,
  ...favoriteRoutes,
  ...featureTagRoutes,
  ...featureLinkRoutes,
  ...featureEnvironmentRoutes,
  ...strategyRoutes,
  ...strategyDefinitionRoutes,
  ...segmentRoutes,
  ...projectAdminRoutes,
  ...projectInsightRoutes,
  ...projectRoutes,
  ...environmentRoutes,
  ...contextRoutes,
  ...tagRoutes,
  ...searchRoutes,
  ...userAccountRoutes,
  ...userRoutes,
  ...inviteRoutes,
  ...instanceAdminRoutes,
  ...tokenRoutes,
  ...uiConfigRoutes,
  ...maintenanceRoutes,
  ...personalDashboardRoutes,
  ...changeRequestRoutes,
  ...addonRoutes,
  ...playgroundRoutes,
  ...clientMetricsRoutes,
  ...applicationMetricsRoutes,
  ...timeTravelRoutes,
  ...importExportRoutes,
];
