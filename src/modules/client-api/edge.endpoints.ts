import { RateLimiterMemory } from "rate-limiter-flexible";
import type { AppDeps } from "../../context.ts";
import { clientAddress } from "../../http/client-address.ts";
import { requestIdOf } from "../../http/request-log.ts";
import { type HandlerRoute, type OperationDoc, PUBLIC } from "../../http/route-table.ts";
import { errorResponse } from "../../shared/error-response.ts";
import { ContentTypeError } from "../../shared/errors.ts";
import { parseJsonBody } from "../../shared/http-body.ts";
import { errorResponseDoc, jsonContent, jsonRequestBody } from "../../shared/openapi.ts";
import { takePoint } from "../../shared/rate-limit.ts";
import { parseInput } from "../../shared/validation.ts";
import { hashSecret } from "../access/credentials.write.ts";
import { unexpiredTokensByHash } from "../tokens/api-tokens.read.ts";
import { MAX_TOKENS, tokenStringList } from "./edge.inputs.ts";

/** Unleash's edgeTokenSchema. */
export type EdgeToken = { token: string; type: string; projects: string[]; environment: string };

/** The token types Edge serves SDKs with: an admin token is never described, whoever asks. */
const EDGE_TOKEN_TYPES = ["client", "frontend"];

/**
 * `POST /edge/validate`: which of these secrets are client or frontend API tokens that work now
 * (not expired), each with its type, projects and environment, in the order asked (Unleash's
 * validatedEdgeTokensSchema). Admin tokens and personal access tokens are never listed.
 */
export async function validEdgeTokens(
  deps: Pick<AppDeps, "db" | "now">,
  secrets: string[],
): Promise<EdgeToken[]> {
  const byHash = new Map(secrets.map((s) => [hashSecret(s), s]));
  const rows = await unexpiredTokensByHash(deps.db, [...byHash.keys()], EDGE_TOKEN_TYPES, deps.now());
  const found = new Map(rows.map((r) => [r.secretHash, r]));
  return secrets.flatMap((token) => {
    const row = found.get(hashSecret(token));
    return row ? [{ token, type: row.type, projects: row.projects, environment: row.environment }] : [];
  });
}

/** Validate calls one client address may make per minute on this node (then 429 with Retry-After). */
export const EDGE_VALIDATE_PER_MINUTE = 30;

/**
 * Unleash Edge's `/edge/**`: `POST /edge/validate` only. As in Unleash it takes no credential:
 * Edge sends none (its upstream client posts to it without a token header), and the answer
 * tells only whether secrets the caller already holds work. So that it cannot serve as an
 * oracle, a call asks about at most MAX_TOKENS secrets, each client address gets
 * EDGE_VALIDATE_PER_MINUTE calls (counted before the body is read), and admin tokens are never
 * described (docs/decisions.md D-33). `/edge/issue-token` is not served (D-33).
 */
export function edgeRoutes(deps: AppDeps): HandlerRoute[] {
  const limiter = new RateLimiterMemory({ points: EDGE_VALIDATE_PER_MINUTE, duration: 60 });
  return [
    {
      method: "POST",
      path: "/edge/validate",
      surface: { name: "edge", prefixes: ["/edge"], decodesPath: false },
      access: PUBLIC,
      doc: VALIDATE_DOC,
      handle: async (req) => {
        const { request } = req;
        const address = clientAddress(request, req.serverContext, deps.config.auth.trustProxy);
        const refusal = await rateLimited(limiter, address, request);
        if (refusal) return refusal;
        const type = request.headers.get("content-type");
        const text = await req.text();
        if (type && !/^\s*application\/json\s*(;|$)/i.test(type)) throw new ContentTypeError();
        const { tokens } = parseInput(tokenStringList, text.trim() ? parseJsonBody(text) : undefined);
        return Response.json({ tokens: await validEdgeTokens(deps, tokens) });
      },
    },
  ];
}

/** Counts one call from `address`; the 429 answer when its minute's calls are used up. */
async function rateLimited(
  limiter: RateLimiterMemory,
  address: string,
  request: Request,
): Promise<Response | null> {
  const retryAfter = await takePoint(limiter, address);
  if (retryAfter === 0) return null;
  const refused = errorResponse(
    429,
    "RateLimitError",
    `Too many token validations from this address; try again in ${retryAfter} seconds.`,
    {},
    requestIdOf(request),
  );
  refused.headers.set("retry-after", String(retryAfter));
  return refused;
}

/** The Edge route in the OpenAPI document (tag "Unleash Edge", as Unleash's). */
const VALIDATE_DOC: OperationDoc = {
  operationId: "getValidTokens",
  summary: "Check which tokens are valid",
  description:
    "For each secret that is a client or frontend API token in force, the token with its type, projects " +
    "and environment (admin tokens are never listed). No credential (as Unleash: Edge sends none); " +
    `at most ${MAX_TOKENS} secrets per call and ${EDGE_VALIDATE_PER_MINUTE} calls per minute from one address (then 429 with Retry-After).`,
  tags: ["Unleash Edge"],
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
                type: { type: "string", enum: ["client", "frontend"] },
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
    "429": errorResponseDoc("Too many calls from this address this minute (RateLimitError, Retry-After)."),
    "415": errorResponseDoc("The body was sent as another media type than JSON (ContentTypeError)."),
  },
};
