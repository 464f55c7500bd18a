import { lazy, Suspense } from "react";
import { Route, Routes } from "react-router";
import { PageTitle, Shell } from "./components/layout.tsx";

/** Each page is its own chunk, loaded on first visit: the first load stays small. */
const FlagsPage = lazy(() => import("./pages/flags/FlagsPage.tsx"));
const TimeTravelPage = lazy(() => import("./pages/time-travel/TimeTravelPage.tsx"));

export function AppRoutes() {
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Routes>
        <Route element={<Shell />}>
          <Route index element={<FlagsPage />} />
          <Route path="flags" element={<FlagsPage />} />
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
