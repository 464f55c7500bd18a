/** A user as flags and events show them (spec 2.8 `createdBy`, collaborators). */
export type UserSummary = { id: number; name: string; imageUrl: string | null };

export function toUserSummary(
  user: {
    id: number;
    name: string | null;
    username: string | null;
    email: string | null;
    imageUrl: string | null;
  } | null,
): UserSummary {
  if (!user) return { id: 0, name: "unknown", imageUrl: null };
  return {
    id: user.id,
    name: user.name ?? user.username ?? user.email ?? "unknown",
    imageUrl: user.imageUrl,
  };
}
