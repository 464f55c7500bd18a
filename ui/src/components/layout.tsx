import { type ReactNode, Suspense } from "react";
import { NavLink, Outlet } from "react-router";
import { useSession } from "../lib/session.tsx";

const NAV: { to: string; label: string; admin?: boolean }[] = [
  { to: "/", label: "Dashboard" },
  { to: "/flags", label: "Flags" },
  { to: "/projects", label: "Projects" },
  { to: "/environments", label: "Environments" },
  { to: "/segments", label: "Segments" },
  { to: "/context-fields", label: "Context fields" },
  { to: "/strategy-types", label: "Strategy types" },
  { to: "/tag-types", label: "Tag types" },
  { to: "/change-requests", label: "Change requests" },
  { to: "/events", label: "Event log" },
  { to: "/time-travel", label: "Time travel" },
  { to: "/playground", label: "Playground" },
  { to: "/import-export", label: "Export and import" },
  { to: "/applications", label: "Applications" },
  { to: "/integrations", label: "Integrations" },
  { to: "/tokens", label: "API tokens" },
  { to: "/users", label: "Users", admin: true },
];

/** The frame of every signed-in page: navigation, the user, and the page itself. */
export function Shell() {
  const { viewer, isAdmin, logout } = useSession();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Vexil</span>
        <NavLink className="who" to="/profile" aria-label={`Your profile (${viewer.name})`}>
          {viewer.user?.imageUrl && <img src={viewer.user.imageUrl} alt="" width={24} height={24} />}
          {viewer.name}
        </NavLink>
        <button type="button" className="secondary" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          {NAV.filter((item) => !item.admin || isAdmin).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.to === "/"}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {/* Inside the frame: opening a page not loaded yet keeps the navigation in place. */}
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

export function PageTitle(props: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-title">
      <h1>{props.children}</h1>
      {props.actions && <div className="actions">{props.actions}</div>}
    </div>
  );
}

/** A query's state while it has no data: loading, or its error. */
export function Pending(props: { fetching: boolean; error?: { message: string } | undefined }) {
  if (props.error)
    return (
      <div className="banner error" role="alert">
        {props.error.message}
      </div>
    );
  return props.fetching ? <p className="loading">Loading…</p> : null;
}
