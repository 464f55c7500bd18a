import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import type { Client } from "urql";
import { preloadPageAt } from "./lib/pages.ts";
import { SessionProvider } from "./lib/session.tsx";
import { LoginPage } from "./pages/login/LoginPage.tsx";
import { AppRoutes, PAGES } from "./routes.tsx";
import "./styles.css";

const currentUrl = () => new URL(location.href);
const prefetchCurrentPage = (client: Client) => preloadPageAt(PAGES, currentUrl(), client);
preloadPageAt(PAGES, currentUrl()); // the page's chunk downloads while React starts

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider onClient={prefetchCurrentPage} signedOut={(login) => <LoginPage login={login} />}>
        <AppRoutes />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
