import { jsonContent } from "../shared/openapi.ts";
import { type HandlerRoute, PUBLIC, type Surface } from "./route-table.ts";

/** Probes and files: no path of their own to refuse (an unknown one is left to the UI and the 404). */
export const PROBES: Surface = { name: "probes", prefixes: [], decodesPath: false, answersHead: true };

const healthBody = (values: string[]) =>
  jsonContent({
    type: "object",
    additionalProperties: false,
    required: ["health"],
    properties: { health: { type: "string", enum: values } },
  });

/**
 * The probes, in Unleash's shapes (tag Operational, as Unleash's): `GET /health` answers
 * `{health: "GOOD"}` while the process serves; `GET /ready` answers `{health: "GOOD"}` once the
 * database is reachable and migrated, else 503 `{health: "BAD"}`. Both are public.
 */
export function healthRoutes(ready?: () => Promise<void>): HandlerRoute[] {
  const probe = { method: "GET", surface: PROBES, access: PUBLIC } as const;
  return [
    {
      ...probe,
      path: "/health",
      doc: {
        operationId: "getHealth",
        summary: "Get instance operational status",
        description: "Answers while the process serves requests (liveness).",
        tags: ["Operational"],
        responses: { "200": { description: "The process is up.", content: healthBody(["GOOD"]) } },
      },
      handle: async () => Response.json({ health: "GOOD" }),
    },
    {
      ...probe,
      path: "/ready",
      doc: {
        operationId: "getReady",
        summary: "Get instance readiness status",
        description:
          "Answers 200 once the database is reachable and every migration is applied (readiness), else 503.",
        tags: ["Operational"],
        responses: {
          "200": { description: "Ready to serve.", content: healthBody(["GOOD"]) },
          "503": {
            description: "Not ready: the database is unreachable or not migrated.",
            content: healthBody(["BAD"]),
          },
        },
      },
      handle: async () => {
        const ok = await Promise.resolve(ready?.()).then(
          () => true,
          () => false,
        );
        return Response.json({ health: ok ? "GOOD" : "BAD" }, { status: ok ? 200 : 503 });
      },
    },
  ];
}
