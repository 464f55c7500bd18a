import { toSvg } from "jdenticon";
import { type HandlerRoute, noSuchPath, PUBLIC, type Surface } from "../../http/route-table.ts";

/** The addresses avatarUrl (avatars.logic.ts) gives out: `<user id>.svg`. */
const AVATAR_FILE = /^(-?\d{1,12})\.svg$/;

const AVATARS: Surface = { name: "avatars", prefixes: ["/avatars"], decodesPath: false, answersHead: true };

/** `GET /avatars/<user id>.svg` (public: it shows a pattern derived from the id only). */
export const avatarRoutes: HandlerRoute[] = [
  {
    method: "GET",
    path: "/avatars/:file",
    surface: AVATARS,
    access: PUBLIC,
    doc: {
      operationId: "getAvatar",
      summary: "A user's avatar",
      description:
        "An SVG pattern derived from the user id only (`/avatars/<id>.svg`, as `imageUrl` gives it).",
      tags: ["Users"],
      responses: {
        "200": {
          description: "The SVG image.",
          content: { "image/svg+xml": { schema: { type: "string" } } },
        },
        "404": { description: "Not an avatar's address." },
      },
    },
    handle: async ({ request, url, params }) => {
      const id = AVATAR_FILE.exec(params.file ?? "")?.[1];
      if (id === undefined) noSuchPath(request, url);
      return new Response(toSvg(`vexil-user-${id}`, 64), {
        headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400, immutable" },
      });
    },
  },
];
