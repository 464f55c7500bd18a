import { Route, Routes } from "react-router";
import { PageTitle, Shell } from "./components/layout.tsx";
import { type LazyPage, lazyPage } from "./lib/pages.ts";

/** Every page, each in its own chunk loaded on first visit: the first load stays small. */
export const PAGES: LazyPage[] = [
  lazyPage("", () => import("./pages/dashboard/DashboardPage.tsx")),
  lazyPage("flags", () => import("./pages/flags/FlagsPage.tsx")),
  lazyPage("projects/:project/flags/:name", () => import("./pages/flag/FlagPage.tsx")),
  // Administration pages
  lazyPage("projects", () => import("./pages/projects/ProjectsPage.tsx")),
  lazyPage("projects/:project", () => import("./pages/projects/ProjectPage.tsx")),
  lazyPage("projects/:project/insights", () => import("./pages/projects/ProjectInsightsPage.tsx")),
  lazyPage("environments", () => import("./pages/environments/EnvironmentsPage.tsx")),
  lazyPage("segments", () => import("./pages/segments/SegmentsPage.tsx")),
  lazyPage("context-fields", () => import("./pages/context-fields/ContextFieldsPage.tsx")),
  lazyPage("strategy-types", () => import("./pages/strategy-types/StrategyTypesPage.tsx")),
  lazyPage("tag-types", () => import("./pages/tag-types/TagTypesPage.tsx")),
  lazyPage("integrations", () => import("./pages/integrations/IntegrationsPage.tsx")),
  lazyPage("integrations/:id", () => import("./pages/integrations/IntegrationPage.tsx")),
  lazyPage("tokens", () => import("./pages/tokens/TokensPage.tsx")),
  lazyPage("users", () => import("./pages/users/UsersPage.tsx")),
  // Change requests, event log and time travel
  lazyPage("change-requests", () => import("./pages/change-requests/ChangeRequestsPage.tsx")),
  lazyPage("change-requests/:id", () => import("./pages/change-requests/ChangeRequestPage.tsx")),
  lazyPage("events", () => import("./pages/events/EventsPage.tsx")),
  lazyPage("time-travel", () => import("./pages/time-travel/TimeTravelPage.tsx")),
  lazyPage("import-export", () => import("./pages/import-export/ImportExportPage.tsx")),
  lazyPage("playground", () => import("./pages/playground/PlaygroundPage.tsx")),
  lazyPage("applications", () => import("./pages/applications/ApplicationsPage.tsx")),
  lazyPage("profile", () => import("./pages/profile/ProfilePage.tsx")),
];

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        {PAGES.map(({ path, Component }) =>
          path === "" ? (
            <Route key={path} index element={<Component />} />
          ) : (
            <Route key={path} path={path} element={<Component />} />
          ),
        )}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return <PageTitle>Page not found</PageTitle>;
}
