import type { Plugin } from "graphql-yoga";
import type { AppDeps } from "../../context.ts";
import { requestIdOf } from "../../http/request-log.ts";
import { errorResponse } from "../../shared/error-response.ts";
import { ContentTypeError, NotFoundError } from "../../shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../shared/http-body.ts";
import { errorResponseDoc, jsonContent, jsonRequestBody } from "../../shared/openapi.ts";
import { parseInput } from "../../shared/validation.ts";
import { hashSecret } from "../access/credentials.write.ts";
import { MAX_TOKENS, tokenStringList } from "./edge.inputs.ts";

/** Unleash's edgeTokenSchema. */
export type EdgeToken = { token: string; type: string; projects: string[]; environment: string };

/**
 * `POST /edge/validate`: which of these secrets are API tokens that work now (not expired),
 * each with its type, projects and environment, in the order asked (Unleash's
 * validatedEdgeTokensSchema). Personal access tokens are never listed.
 */
export async function validEdgeTokens(
  deps: Pick<AppDeps, "db" | "now">,
  secrets: string[],
): Promise<EdgeToken[]> {
  const byHash = new Map(secrets.map((s) => [hashSecret(s), s]));
  const now = deps.now();
  const rows = await deps.db.apiToken.findMany({
    where: { secretHash: { in: [...byHash.keys()] }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    select: { secretHash: true, type: true, projects: true, environment: true },
  });
  const found = new Map(rows.map((r) => [r.secretHash, r]));
  return secrets.flatMap((token) => {
    const row = found.get(hashSecret(token));
    return row ? [{ token, type: row.type, projects: row.projects, environment: row.environment }] : [];
  });
}

/**
 * Unleash Edge's `/edge/**`: `POST /edge/validate` only. As in Unleash, it takes no credential
 * (Edge sends none; the answer tells only whether secrets the caller already holds are valid).
 * `/edge/issue-token` is not served (see docs/decisions.md D-075).
 */
export function edgePlugin(deps: AppDeps): Plugin<Record<string, unknown>> {
  return {
    async onRequest({ request, url, endResponse }) {
      if (url.pathname !== "/edge" && !url.pathname.startsWith("/edge/")) return;
      if (url.pathname !== "/edge/validate") {
        throw new NotFoundError(`No such path: ${request.method} ${url.pathname}`);
      }
      if (request.method !== "POST") {
        const refused = errorResponse(
          405,
          "MethodNotAllowed",
          `${request.method} is not allowed here; use POST`,
          {},
          requestIdOf(request),
        );
        refused.headers.set("allow", "POST");
        return endResponse(refused);
      }
      const type = request.headers.get("content-type");
      const text = await readBodyText(request, deps.config.http.maxBodyBytes);
      if (type && !/^\s*application\/json\s*(;|$)/i.test(type)) throw new ContentTypeError();
      const { tokens } = parseInput(tokenStringList, text.trim() ? parseJsonBody(text) : undefined);
      endResponse(Response.json({ tokens: await validEdgeTokens(deps, tokens) }));
    },
  };
}

/** The Edge path for the OpenAPI document (tag "Unleash Edge", as Unleash's). */
export function edgeOpenApiPaths(): Record<string, Record<string, unknown>> {
  return {
    "/edge/validate": {
      post: {
        operationId: "getValidTokens",
        summary: "Check which tokens are valid",
        description:
          "For each secret that is an API token in force, the token with its type, projects and environment. No credential (as Unleash: Edge sends none).",
        tags: ["Unleash Edge"],
        security: [],
        requestBody: jsonRequestBody({
          type: "object",
          required: ["tokens"],
          properties: { tokens: { type: "array", items: { type: "string" }, maxItems: MAX_TOKENS } },
        }),
        responses: {
          "200": {
            description: "The valid ones, in the order asked.",
            content: jsonContent({
              type: "object",
              required: ["tokens"],
              properties: {
                tokens: {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["token", "projects", "type", "environment"],
                    properties: {
                      token: { type: "string" },
                      type: { type: "string", enum: ["client", "admin", "frontend", "backend"] },
                      projects: { type: "array", items: { type: "string" } },
                      environment: { type: "string" },
                    },
                  },
                },
              },
            }),
          },
          "400": errorResponseDoc("The body is not {tokens: string[]} (ValidationError)."),
          "413": errorResponseDoc("The body is larger than VEXIL_MAX_BODY_BYTES."),
          "415": errorResponseDoc("The body was sent as another media type than JSON (ContentTypeError)."),
        },
      },
    },
  };
}
