import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { type Client, Provider, useQuery } from "urql";
import { can as canDo } from "../../../src/modules/access/grant-check.logic.ts";
import type { Permission } from "../../../src/modules/access/permissions.logic.ts";
import type { Grant } from "../../../src/modules/access/principal.types.ts";
import { createClient } from "./client.ts";
import { graphql, type ResultOf } from "./graphql.ts";

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      name
      kind
      rootRole
      via
      user { id databaseId name email username imageUrl }
      permissions { permission project environment }
    }
  }
`);

export type Viewer = ResultOf<typeof ViewerQuery>["viewer"];

type Session = {
  viewer: Viewer;
  isAdmin: boolean;
  /** Whether the viewer holds `permission` there, by the API's own rule (controls they cannot use are not shown). */
  can(permission: string, project?: string | null, environment?: string | null): boolean;
  logout(): Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

/** The signed-in user; only inside `SessionProvider`'s signed-in branch. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a session");
  return session;
}

/**
 * Holds the GraphQL client and the viewer. Without a valid session it renders `signedOut`,
 * given a `login` that posts to `/auth/simple/login` and starts over with a fresh client
 * (and so a fresh cache: nothing of the previous user survives).
 */
export function SessionProvider(props: {
  /** Called with each new client (first render, log in, log out), e.g. to prefetch the page. */
  onClient?(client: Client): void;
  signedOut: (login: (username: string, password: string) => Promise<string | null>) => ReactNode;
  children: ReactNode;
}) {
  const [generation, setGeneration] = useState(0);
  const [signedOut, setSignedOut] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation (log in, log out) is a new client and cache
  const client = useMemo(() => createClient(() => setSignedOut(true)), [generation]);
  const { onClient } = props;
  useEffect(() => onClient?.(client), [client, onClient]);

  const login = useCallback(async (username: string, password: string) => {
    const response = await fetch("/auth/simple/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      return body.message ?? `Login failed (${response.status}).`;
    }
    setSignedOut(false);
    setGeneration((g) => g + 1);
    return null;
  }, []);

  const logout = useCallback(async () => {
    await fetch("/auth/logout", { method: "POST", headers: { "content-type": "application/json" } });
    setSignedOut(true);
    setGeneration((g) => g + 1);
  }, []);

  return (
    <Provider value={client}>
      {signedOut ? (
        props.signedOut(login)
      ) : (
        <ViewerGate logout={logout} signedOut={() => props.signedOut(login)}>
          {props.children}
        </ViewerGate>
      )}
    </Provider>
  );
}

function ViewerGate(props: { logout(): Promise<void>; signedOut: () => ReactNode; children: ReactNode }) {
  const [result] = useQuery({ query: ViewerQuery });
  const session = useMemo<Session | null>(() => {
    const viewer = result.data?.viewer;
    if (!viewer) return null;
    const grants = viewer.permissions as Grant[];
    return {
      viewer,
      isAdmin: viewer.rootRole === "Admin",
      can: (permission, project, environment) =>
        canDo({ grants }, { permission: permission as Permission, project, environment }),
      logout: props.logout,
    };
  }, [result.data, props.logout]);
  if (result.fetching && !result.data) return <p className="loading">Loading…</p>;
  if (!session) return <>{props.signedOut()}</>;
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}
