import type { Plugin } from "graphql-yoga";
import { toSvg } from "jdenticon";

/** The addresses avatarUrl (avatars.logic.ts) gives out. */
const AVATAR_PATH = /^\/avatars\/(-?\d{1,12})\.svg$/;

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
