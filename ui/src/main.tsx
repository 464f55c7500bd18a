import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Route, Routes } from "react-router";
import type { Client } from "urql";
import { preloadPageAt } from "./lib/pages.ts";
import { SessionProvider } from "./lib/session.tsx";
import { LoginPage } from "./pages/login/LoginPage.tsx";
import { AppRoutes, PAGES } from "./routes.tsx";
import "./styles.css";

const currentUrl = () => new URL(location.href);
const prefetchCurrentPage = (client: Client) => preloadPageAt(PAGES, currentUrl(), client);
preloadPageAt(PAGES, currentUrl()); // the page's chunk downloads while React starts

/** Pages for someone without a session, opened from a link sent to them (with or without one). */
const NewUserPage = lazy(() => import("./pages/public/NewUserPage.tsx"));
const ResetPasswordPage = lazy(() => import("./pages/public/ResetPasswordPage.tsx"));

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <BrowserRouter>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <Routes>
          <Route path="/new-user" element={<NewUserPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route
            path="*"
            element={
              <SessionProvider
                onClient={prefetchCurrentPage}
                signedOut={(login) => <LoginPage login={login} />}
              >
                <AppRoutes />
              </SessionProvider>
            }
          />
        </Routes>
      </Suspense>
    </BrowserRouter>
  </StrictMode>,
);
