/**
 * Every user has an avatar served by Vexil itself (no external service, works offline): a
 * generated identicon at a stable address, used wherever a user has no image of their own.
 */
export function avatarUrl(publicUrl: string, userId: number): string {
  return `${publicUrl}/avatars/${userId}.svg`;
}

/** The image a user shows: their own, else their generated avatar. */
export function imageOf(publicUrl: string, user: { id: number; imageUrl: string | null }): string {
  return user.imageUrl ?? avatarUrl(publicUrl, user.id);
}
