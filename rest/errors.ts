import { randomUUID } from "node:crypto";
import type { GraphQLFormattedError } from "graphql";
import type { ErrorCode } from "../src/shared/errors.ts";

/** Domain error code -> HTTP status and the error `name` of spec section 7 / Unleash. */
const BY_CODE: Record<ErrorCode | "INTERNAL", { status: number; name: string }> = {
  VALIDATION: { status: 400, name: "ValidationError" },
  UNAUTHENTICATED: { status: 401, name: "AuthenticationRequired" },
  FORBIDDEN: { status: 403, name: "NoAccessError" },
  NOT_FOUND: { status: 404, name: "NotFoundError" },
  NAME_EXISTS: { status: 409, name: "NameExistsError" },
  CONFLICT: { status: 409, name: "ConflictError" },
  LIMIT_EXCEEDED: { status: 400, name: "ExceedsLimitError" },
  ARCHIVED: { status: 400, name: "ArchivedFeatureError" },
  INVALID_OPERATION: { status: 403, name: "InvalidOperationError" },
  RATE_LIMITED: { status: 429, name: "RateLimitError" },
  PAYLOAD_TOO_LARGE: { status: 413, name: "PayloadTooLargeError" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, name: "ContentTypeError" },
  MAINTENANCE: { status: 503, name: "MaintenanceModeError" },
  INTERNAL: { status: 500, name: "InternalError" },
};

export type RestErrorBody = {
  id: string;
  name: string;
  message: string;
  details?: { message: string; path?: string }[];
  [extra: string]: unknown;
};

export function errorResponse(
  status: number,
  name: string,
  message: string,
  extra: Record<string, unknown> = {},
  /** The request's id (x-request-id), so a caller's report and the logs meet. */
  id: string = randomUUID(),
) {
  const body: RestErrorBody = { id, name, message, details: [{ message }], ...extra };
  return Response.json(body, { status });
}

/**
 * Turns the first GraphQL error into the REST error. Errors without a domain code come from
 * GraphQL's own validation (e.g. a variable of the wrong type): the request was malformed.
 */
export function responseForGraphQLError(error: GraphQLFormattedError, id?: string): Response {
  const ext = (error.extensions ?? {}) as { code?: string; details?: unknown; permissions?: unknown };
  const mapped = BY_CODE[ext.code as ErrorCode] ?? (ext.code ? BY_CODE.INTERNAL : BY_CODE.VALIDATION);
  const extra: Record<string, unknown> = {};
  if (Array.isArray(ext.details)) extra.details = ext.details;
  if (Array.isArray(ext.permissions)) extra.permissions = ext.permissions;
  return errorResponse(mapped.status, mapped.name, cleanMessage(error.message), extra, id);
}

/** GraphQL coercion messages name `$variables`; REST callers know only their fields. */
function cleanMessage(message: string): string {
  return message
    .replace(
      /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]*)")?; /,
      (_m, variable, value, path) =>
        `Invalid value ${value} for "${path ? path.replace(/^\w+\./, "") : variable}": `,
    )
    .replace(
      /^Variable "\$(\w+)" of required type "[^"]+" was not provided\./,
      (_m, variable) => `"${variable}" is required.`,
    )
    .replace(/Expected non-nullable type "[^"]+" not to be null\./, "it is required.");
}

export const STATUS_NAMES = BY_CODE;
