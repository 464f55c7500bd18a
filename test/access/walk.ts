import {
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { z } from "zod";
import type { Route } from "../../rest/route.ts";
import type { DeclaredScopes } from "../../rest/route-permissions.ts";

/**
 * Builds calls for the matrix from the schema and the route table alone, so fields and
 * routes added later are covered without touching the test. Arguments and path params named
 * like a project get `default` (where the matrix's Member holds a role), environments get
 * `development`, ids an id nobody has, anything else a name nothing has.
 */
const PROJECT = /^project(Id)?$/i;
const ENVIRONMENT = /^env(ironment)?(Name|Id)?$/i;

function dummyScalar(type: string, name: string): unknown {
  if (PROJECT.test(name)) return "default";
  if (ENVIRONMENT.test(name)) return "development";
  switch (type) {
    case "Int":
    case "Long":
      return 999_999;
    case "Float":
      return 1;
    case "Boolean":
      return false;
    case "DateTime":
      return "2099-01-01T00:00:00.000Z";
    case "JSON":
      return {};
    default:
      return "matrix-nothing";
  }
}

export function dummyInput(type: GraphQLInputType, name: string): unknown {
  if (isNonNullType(type)) return dummyInput(type.ofType, name);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type)) {
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type) || PROJECT.test(f.name) || ENVIRONMENT.test(f.name))
        .map((f) => [f.name, dummyInput(f.type, f.name)]),
    );
  }
  if (isScalarType(type)) return dummyScalar(type.name, name);
  return null;
}

/** One operation calling one root field with dummy arguments passed as variables. */
export function fieldCall(operation: "query" | "mutation", field: GraphQLField<unknown, unknown>) {
  const args = field.args.filter(
    (a) => isNonNullType(a.type) || PROJECT.test(a.name) || ENVIRONMENT.test(a.name),
  );
  const variables = Object.fromEntries(args.map((a) => [a.name, dummyInput(a.type, a.name)]));
  const defs = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
  const call = args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const selection = isCompositeType(getNamedType(field.type)) ? " { __typename }" : "";
  const document = `${operation} Matrix${defs ? `(${defs})` : ""} { ${field.name}${call ? `(${call})` : ""}${selection} }`;
  return { document, variables };
}

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  format?: string;
};

function sample(schema: JsonSchema, name: string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return sample(alternative, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {}, key)]),
      );
    case "array":
      return [];
    case "integer":
    case "number":
      return dummyScalar("Int", name);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return schema.format === "date-time" ? dummyScalar("DateTime", name) : dummyScalar("String", name);
  }
}

/** A request to a route with every path param, required query parameter and body field filled with dummies. */
export function routeCall(route: Route) {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (PROJECT.test(name)) return "default";
    if (ENVIRONMENT.test(name)) return "development";
    if (/id$/i.test(name)) return "999999";
    return "matrix-nothing";
  });
  const body = route.schemas?.body
    ? sample(z.toJSONSchema(route.schemas.body, { io: "input" }) as JsonSchema, "body")
    : ["POST", "PUT", "PATCH"].includes(route.method)
      ? {}
      : undefined;
  const query = new URLSearchParams(
    route.schemas?.query
      ? Object.entries(
          sample(z.toJSONSchema(route.schemas.query, { io: "input" }) as JsonSchema, "query") as object,
        ).map(([key, value]) => [key, String(value)])
      : [],
  );
  return { path: query.size ? `${path}?${query}` : path, query, body };
}

/** The scopes a field declared, evaluated for given arguments when they depend on them. */
export function scopesFor(scopes: DeclaredScopes | undefined, args: Record<string, unknown>) {
  if (typeof scopes !== "function") return scopes;
  return (scopes as (parent: unknown, args: unknown, ctx: unknown, info: unknown) => unknown)(
    undefined,
    args,
    {},
    {},
  ) as Exclude<DeclaredScopes, (...a: never[]) => unknown>;
}
