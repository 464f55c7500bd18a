import { AdminOnly } from "../../components/AdminOnly.tsx";
import { PageTitle } from "../../components/layout.tsx";
import { RolesSection } from "./RolesSection.tsx";
import { UsersSection } from "./UsersSection.tsx";

/** Users and roles: for admins only (the API refuses everyone else with FORBIDDEN). */
export default function UsersPage() {
  return (
    <AdminOnly title="Users">
      <PageTitle>Users</PageTitle>
      <UsersSection />
      <RolesSection />
    </AdminOnly>
  );
}
