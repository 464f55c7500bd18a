import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { PageTitle, Shell } from "./components/layout.tsx";

/** Each page is its own chunk, loaded on first visit: the first load stays small. */
const FlagsPage = lazy(() => import("./pages/flags/FlagsPage.tsx"));
const DashboardPage = lazy(() => import("./pages/dashboard/DashboardPage.tsx"));
const ChangeRequestsPage = lazy(() => import("./pages/change-requests/ChangeRequestsPage.tsx"));
const ChangeRequestPage = lazy(() => import("./pages/change-requests/ChangeRequestPage.tsx"));
const EventsPage = lazy(() => import("./pages/events/EventsPage.tsx"));

export function AppRoutes() {
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Routes>
        <Route element={<Shell />}>
          <Route path="flags" element={<FlagsPage />} />
          {/* Dashboard, change requests and event log */}
          <Route index element={<DashboardPage />} />
          <Route path="change-requests" element={<ChangeRequestsPage />} />
          <Route path="change-requests/:id" element={<ChangeRequestPage />} />
          <Route path="events" element={<EventsPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

function NotFound() {
  return <PageTitle>Page not found</PageTitle>;
}
