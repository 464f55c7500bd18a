/**
 * The one error family of Vexil. Services throw these; GraphQL shows `code` in
 * `extensions.code`, and rest/errors.ts maps the same code to the HTTP status and Unleash
 * error `name`. Anything else thrown is unexpected: masked, logged with the request id, 500.
 */
export type ErrorCode =
  | "VALIDATION"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "NAME_EXISTS"
  | "LIMIT_EXCEEDED"
  | "ARCHIVED"
  | "INVALID_OPERATION"
  | "RATE_LIMITED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "MAINTENANCE";

export type ErrorDetail = { message: string; path?: string };

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** Extra fields shown to clients (for example the missing permission). */
  readonly extra: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details ?? [{ message }];
    this.extra = extra;
    // An expected error is answered, never logged with its trace. graphql-js reads the stack of
    // every error a resolver throws (GraphQLError copies it): a plain one spares each 4xx the
    // formatting of V8's trace through source maps.
    this.stack = `${this.name}: ${message}`;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super("VALIDATION", message, details);
  }
}

export class AuthenticationRequired extends DomainError {
  constructor(message = "You must log in to use Vexil: send a valid API token in the Authorization header.") {
    super("UNAUTHENTICATED", message);
  }
}

export class NoAccessError extends DomainError {
  constructor(permission: string, environment?: string) {
    const where = environment ? ` in the "${environment}" environment` : "";
    super(
      "FORBIDDEN",
      `You don't have the required permissions to perform this operation. To perform this action, you need the "${permission}" permission${where}.`,
      undefined,
      { permissions: [permission] },
    );
  }
}

/** A refusal that is not about permissions (e.g. protected by change requests). */
export class ForbiddenOperation extends DomainError {
  constructor(message: string) {
    super("FORBIDDEN", message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super("NOT_FOUND", message);
  }
}

export class NameExistsError extends DomainError {
  constructor(message: string) {
    super("NAME_EXISTS", message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super("CONFLICT", message, details);
  }
}

export class LimitExceededError extends DomainError {
  constructor(resource: string, limit: number) {
    super(
      "LIMIT_EXCEEDED",
      `Failed to create ${resource}. You can't create more than the established limit of ${limit}.`,
    );
  }
}

export class ArchivedFeatureError extends DomainError {
  constructor(message = "Cannot perform this operation on archived features") {
    super("ARCHIVED", message);
  }
}

export class InvalidOperationError extends DomainError {
  constructor(message: string) {
    super("INVALID_OPERATION", message);
  }
}

export class RateLimitError extends DomainError {
  constructor(message: string) {
    super("RATE_LIMITED", message);
  }
}

/** A request body over the configured size (VEXIL_MAX_BODY_BYTES); refused before parsing. */
export class PayloadTooLargeError extends DomainError {
  constructor(limit: number) {
    super("PAYLOAD_TOO_LARGE", `The request body is larger than the limit of ${limit} bytes.`);
  }
}

export class ContentTypeError extends DomainError {
  constructor(message = "The request body must be JSON: send Content-Type: application/json.") {
    super("UNSUPPORTED_MEDIA_TYPE", message);
  }
}

/** A change refused while the instance is in maintenance mode (503, as Unleash). */
export class MaintenanceModeError extends DomainError {
  constructor() {
    super("MAINTENANCE", "Vexil is in maintenance mode: changes are refused until an admin turns it off.");
  }
}
