import { randomUUID } from "node:crypto";
import type { ErrorCode } from "./errors.ts";

/** Domain error code -> HTTP status and the error `name` of spec section 7 / Unleash. */
export const STATUS_NAMES: Record<ErrorCode | "INTERNAL", { status: number; name: string }> = {
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
