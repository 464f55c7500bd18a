import type { ReactNode } from "react";
import { useSession } from "../lib/session.tsx";
import { PageTitle } from "./layout.tsx";

/**
 * Renders its children for Admins only; anyone else who opens the page by its URL is told why
 * it stays empty (the API would answer FORBIDDEN anyway).
 */
export function AdminOnly(props: { title: string; children: ReactNode }) {
  const { isAdmin } = useSession();
  if (isAdmin) return <>{props.children}</>;
  return (
    <>
      <PageTitle>{props.title}</PageTitle>
      <div className="banner error" role="alert">
        <p>Admins only: this page needs the Admin root role.</p>
      </div>
    </>
  );
}
