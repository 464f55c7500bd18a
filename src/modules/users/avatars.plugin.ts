import type { Plugin } from "graphql-yoga";
import { toSvg } from "jdenticon";

const AVATAR_PATH = /^\/avatars\/(-?\d{1,12})\.svg$/;

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

/** Serves `/avatars/<user id>.svg` (public: it shows a pattern derived from the id only). */
export function avatarPlugin(): Plugin<Record<string, unknown>> {
  return {
    onRequest({ url, endResponse }) {
      const match = AVATAR_PATH.exec(url.pathname);
      if (!match) return;
      endResponse(
        new Response(toSvg(`vexil-user-${match[1]}`, 64), {
          headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400, immutable" },
        }),
      );
    },
  };
}
