import { type GraphQLFormattedError, type GraphQLSchema, isEnumType } from "graphql";
import { errorResponse, STATUS_NAMES } from "../src/shared/error-response.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import type { BodyPathOf } from "./variables.ts";

/**
 * Turns the first GraphQL error into the REST error. Errors without a domain code come from
 * GraphQL's own validation (e.g. a variable of the wrong type): the request was malformed. A
 * coercion message is reworded for the REST caller (`bodyPath` names the field as they wrote it).
 */
export function responseForGraphQLError(
  error: GraphQLFormattedError,
  id?: string,
  rest: { bodyPath?: BodyPathOf; schema?: GraphQLSchema } = {},
): Response {
  const ext = (error.extensions ?? {}) as { code?: string; details?: unknown; permissions?: unknown };
  const mapped =
    STATUS_NAMES[ext.code as ErrorCode] ?? (ext.code ? STATUS_NAMES.INTERNAL : STATUS_NAMES.VALIDATION);
  const extra: Record<string, unknown> = {};
  const reworded = restMessage(error.message, rest.bodyPath, rest.schema);
  if (Array.isArray(ext.details)) extra.details = ext.details;
  else if (reworded.path !== undefined) extra.details = [{ message: reworded.message, path: reworded.path }];
  if (Array.isArray(ext.permissions)) extra.permissions = ext.permissions;
  return errorResponse(mapped.status, mapped.name, reworded.message, extra, id);
}

/** graphql-js's coercion problems, as what the value must be. */
const PROBLEMS: [RegExp, (m: RegExpExecArray, schema?: GraphQLSchema) => string][] = [
  [/^String cannot represent a non string value/, () => "must be a string"],
  [/^Int cannot represent non-integer value/, () => "must be an integer"],
  [
    /^Int cannot represent non 32-bit signed integer value/,
    () => "must be an integer from -2147483648 to 2147483647",
  ],
  [/^Float cannot represent non numeric value/, () => "must be a number"],
  [/^Boolean cannot represent a non boolean value/, () => "must be true or false"],
  [/^ID cannot represent value/, () => "must be a string or an integer"],
  [/^Value ".*" does not exist in "(\w+)" enum\./s, (m, schema) => oneOf(m[1], schema)],
  [/^Enum "(\w+)" cannot represent non-string value/, (m, schema) => oneOf(m[1], schema)],
  [/^Expected type "\w+" to be an object\./, () => "must be an object"],
  [/^Expected non-nullable type "[^"]+" not to be null\./, () => "must not be null"],
  // Vexil's own scalars say "DateTime must be ...": keep what follows the type's name.
  [/^[A-Z]\w* (must .*?)\.?$/s, (m) => m[1] ?? ""],
];

function oneOf(enumName: string | undefined, schema?: GraphQLSchema): string {
  const type = enumName ? schema?.getType(enumName) : undefined;
  return isEnumType(type)
    ? `must be one of ${type
        .getValues()
        .map((v) => `"${v.value}"`)
        .join(", ")}`
    : "is not an allowed value";
}

/**
 * A GraphQL coercion message in REST words: `"constraints[0].values" must be a list` instead of
 * `Variable "$input" got invalid value ... at "input.constraints[0].values"; ...`. Other messages
 * are kept; `path` is the body field when the message names one.
 */
export function restMessage(
  message: string,
  bodyPath: BodyPathOf = (p) => p,
  schema?: GraphQLSchema,
): { message: string; path?: string } {
  const name = (path: string) => (path ? `"${path}"` : "The request body");
  const missing =
    /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (was not provided|must not be null)\.$/.exec(
      message,
    );
  if (missing) {
    const path = bodyPath(missing[1] ?? "");
    return {
      message: `${name(path)} ${missing[2] === "was not provided" ? "is required" : "must not be null"}.`,
      path,
    };
  }
  const invalid = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]*)")?; (.*)$/s.exec(message);
  if (!invalid) return { message };
  const [, variable = "", value = "", at, problem = ""] = invalid;
  let path = bodyPath(at ?? variable);
  let what = problem;
  const field =
    /^Field "(\w+)" (of required type "[^"]+" was not provided|is not defined by type "[^"]+")\./.exec(
      problem,
    );
  if (field) {
    path = path ? `${path}.${field[1]}` : (field[1] ?? "");
    what = field[2]?.startsWith("of required") ? "is required" : "is not a field here";
    return { message: `${name(path)} ${what}.`, path };
  }
  for (const [pattern, reword] of PROBLEMS) {
    const m = pattern.exec(problem);
    if (m) {
      what = reword(m, schema);
      break;
    }
  }
  return { message: `${name(path)} ${what} (got ${value}).`, path };
}
