import type { Plugin } from "graphql-yoga";
import { jsonContent } from "../shared/openapi.ts";

/**
 * The probes, in Unleash's shapes: `GET /health` answers `{health: "GOOD"}` while the process
 * serves; `GET /ready` answers `{health: "GOOD"}` once the database is reachable and migrated,
 * else 503 `{health: "BAD"}`. Both are public.
 */
export function healthPlugin(ready?: () => Promise<void>): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname === "/health") {
        endResponse(Response.json({ health: "GOOD" }));
      } else if (url.pathname === "/ready") {
        const ok = await Promise.resolve(ready?.()).then(
          () => true,
          () => false,
        );
        endResponse(Response.json({ health: ok ? "GOOD" : "BAD" }, { status: ok ? 200 : 503 }));
      }
    },
  };
}

const healthBody = (values: string[]) =>
  jsonContent({
    type: "object",
    additionalProperties: false,
    required: ["health"],
    properties: { health: { type: "string", enum: values } },
  });

/** The probes' OpenAPI paths (tag Operational, as Unleash's). */
export function healthOpenApiPaths(): Record<string, Record<string, unknown>> {
  const operation = (operationId: string, summary: string, description: string, responses: unknown) => ({
    get: { operationId, summary, description, tags: ["Operational"], security: [], responses },
  });
  return {
    "/health": operation(
      "getHealth",
      "Get instance operational status",
      "Answers while the process serves requests (liveness).",
      { "200": { description: "The process is up.", content: healthBody(["GOOD"]) } },
    ),
    "/ready": operation(
      "getReady",
      "Get instance readiness status",
      "Answers 200 once the database is reachable and every migration is applied (readiness), else 503.",
      {
        "200": { description: "Ready to serve.", content: healthBody(["GOOD"]) },
        "503": {
          description: "Not ready: the database is unreachable or not migrated.",
          content: healthBody(["BAD"]),
        },
      },
    ),
  };
}
