import type { Route } from "../route.ts";
import { addonRoutes } from "./addons.ts";
import { changeRequestRoutes } from "./change-requests.ts";
import { applicationMetricsRoutes } from "./client-metrics.applications.ts";
import { clientMetricsRoutes } from "./client-metrics.ts";
import { contextRoutes } from "./context-fields.ts";
import { dependencyRoutes } from "./dependencies.ts";
import { environmentRoutes } from "./environments.ts";
import { eventRoutes } from "./events.ts";
import { favoriteRoutes } from "./favorites.ts";
import { strategyRoutes } from "./feature-environments.strategies.ts";
import { featureEnvironmentRoutes } from "./feature-environments.ts";
import { archiveRoutes } from "./features.archive.ts";
import { featureLinkRoutes } from "./features.links.ts";
import { featureOperationRoutes } from "./features.operations.ts";
import { featureTagRoutes } from "./features.tags.ts";
import { featureRoutes } from "./features.ts";
import { importExportRoutes } from "./import-export.ts";
import { instanceAdminRoutes } from "./instance-stats.ts";
import { inviteRoutes } from "./invites.ts";
import { maintenanceRoutes } from "./maintenance.ts";
import { personalDashboardRoutes } from "./personal-dashboard.ts";
import { playgroundRoutes } from "./playground.ts";
import { projectInsightRoutes } from "./project-insights.ts";
import { projectRoutes } from "./projects.ts";
import { searchRoutes } from "./search.ts";
import { segmentRoutes } from "./segments.ts";
import { strategyDefinitionRoutes } from "./strategy-definitions.ts";
import { tagRoutes } from "./tags.ts";
import { timeTravelRoutes } from "./time-travel.ts";
import { projectAdminRoutes } from "./tokens.projects.ts";
import { tokenRoutes } from "./tokens.ts";
import { uiConfigRoutes } from "./ui-config.ts";
import { userAccountRoutes } from "./users.account.ts";
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
