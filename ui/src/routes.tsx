import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { PageTitle, Shell } from "./components/layout.tsx";

/** Each page is its own chunk, loaded on first visit: the first load stays small. */
const FlagsPage = lazy(() => import("./pages/flags/FlagsPage.tsx"));
const FlagPage = lazy(() => import("./pages/flag/FlagPage.tsx"));
// Administration pages
const ProjectsPage = lazy(() => import("./pages/projects/ProjectsPage.tsx"));
const ProjectPage = lazy(() => import("./pages/projects/ProjectPage.tsx"));
const EnvironmentsPage = lazy(() => import("./pages/environments/EnvironmentsPage.tsx"));
const SegmentsPage = lazy(() => import("./pages/segments/SegmentsPage.tsx"));
const ContextFieldsPage = lazy(() => import("./pages/context-fields/ContextFieldsPage.tsx"));
const TagTypesPage = lazy(() => import("./pages/tag-types/TagTypesPage.tsx"));
const IntegrationsPage = lazy(() => import("./pages/integrations/IntegrationsPage.tsx"));
const IntegrationPage = lazy(() => import("./pages/integrations/IntegrationPage.tsx"));
const TokensPage = lazy(() => import("./pages/tokens/TokensPage.tsx"));
const UsersPage = lazy(() => import("./pages/users/UsersPage.tsx"));
const DashboardPage = lazy(() => import("./pages/dashboard/DashboardPage.tsx"));
const ChangeRequestsPage = lazy(() => import("./pages/change-requests/ChangeRequestsPage.tsx"));
const ChangeRequestPage = lazy(() => import("./pages/change-requests/ChangeRequestPage.tsx"));
const EventsPage = lazy(() => import("./pages/events/EventsPage.tsx"));
const TimeTravelPage = lazy(() => import("./pages/time-travel/TimeTravelPage.tsx"));

export function AppRoutes() {
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Routes>
        <Route element={<Shell />}>
          <Route path="flags" element={<FlagsPage />} />
          <Route path="projects/:project/flags/:name" element={<FlagPage />} />
          {/* Administration pages */}
          <Route path="projects" element={<ProjectsPage />} />
          <Route path="projects/:project" element={<ProjectPage />} />
          <Route path="environments" element={<EnvironmentsPage />} />
          <Route path="segments" element={<SegmentsPage />} />
          <Route path="context-fields" element={<ContextFieldsPage />} />
          <Route path="tag-types" element={<TagTypesPage />} />
          <Route path="integrations" element={<IntegrationsPage />} />
          <Route path="integrations/:id" element={<IntegrationPage />} />
          <Route path="tokens" element={<TokensPage />} />
          <Route path="users" element={<UsersPage />} />
          {/* Dashboard, change requests and event log */}
          <Route index element={<DashboardPage />} />
          <Route path="change-requests" element={<ChangeRequestsPage />} />
          <Route path="change-requests/:id" element={<ChangeRequestPage />} />
          <Route path="events" element={<EventsPage />} />
          <Route path="time-travel" element={<TimeTravelPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

function NotFound() {
  return <PageTitle>Page not found</PageTitle>;
}
