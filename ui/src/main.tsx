import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { SessionProvider } from "./lib/session.tsx";
import { LoginPage } from "./pages/login/LoginPage.tsx";
import { AppRoutes } from "./routes.tsx";
import "./styles.css";

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <BrowserRouter>
      <SessionProvider signedOut={(login) => <LoginPage login={login} />}>
        <AppRoutes />
      </SessionProvider>
    </BrowserRouter>
  </StrictMode>,
);
