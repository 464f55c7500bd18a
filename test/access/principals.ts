import type { TestApp } from "../helpers/app.ts";
import { addProjectMember, userWithPat } from "../helpers/builders.ts";

export type Principals = Awaited<ReturnType<typeof seedPrincipals>>;

/** The matrix's callers: Viewer, Editor, a Viewer who is Member of `default`, and an Admin user. */
export async function seedPrincipals(t: TestApp) {
  const viewer = await userWithPat(t, "vera-viewer", "Viewer");
  const editor = await userWithPat(t, "eddie-editor", "Editor");
  const member = await userWithPat(t, "mia-member", "Viewer");
  const admin = await userWithPat(t, "ada-admin", "Admin");
  await addProjectMember(t, "default", member.id, 5);
  return { viewer, editor, member, admin };
}
