import {
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  typeFromAST,
} from "graphql";
import { ValidationError } from "../src/shared/errors.ts";

/** Maps a GraphQL value path (`input.constraints[0].values`, `names[1]`) to the body path a REST caller wrote. */
export type BodyPathOf = (path: string) => string;

/**
 * A route's variables in the shape its GraphQL inputs take: fields the inputs do not know are
 * dropped, as Unleash ignores fields its schema leaves open (routes whose Unleash schema refuses
 * them declare a strict body schema, checked by `unknownBodyFields` first); a single value where
 * a list belongs is refused, where GraphQL would quietly make it a list of one (a JSON body is
 * read as JSON says). GraphQL itself stays strict.
 */
export function restVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  bodyPath: BodyPathOf = (path) => path,
): Record<string, unknown> {
  const pruned: Record<string, unknown> = { ...variables };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const name = variable.variable.name.value;
      const type = typeFromAST(schema, variable.type) as GraphQLInputType | undefined;
      if (type && name in pruned) pruned[name] = prune(type, pruned[name], name, bodyPath);
    }
  }
  return pruned;
}

function prune(type: GraphQLInputType, value: unknown, path: string, bodyPath: BodyPathOf): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (value === null || value === undefined) return value;
    if (!Array.isArray(value)) {
      const field = bodyPath(path);
      const message = field ? `"${field}" must be a list.` : "The request body must be a list.";
      throw new ValidationError(message, [{ message, path: field }]);
    }
    return value.map((item, i) => prune(inner.ofType, item, `${path}[${i}]`, bodyPath));
  }
  if (!isInputObjectType(inner) || typeof value !== "object" || value === null || Array.isArray(value)) {
    return value;
  }
  const fields = inner.getFields();
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields[key];
    if (field) kept[key] = prune(field.type, item, `${path}.${key}`, bodyPath);
  }
  return kept;
}

/**
 * Where each variable of a route's operation sits in its request body, so messages name the
 * caller's field: `bodyPaths` (the route's) first; else an input-object variable (`$input`) holds
 * the body's own fields, and any other variable is the body field of its name.
 */
export function bodyPathOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  bodyPaths: Record<string, string> = {},
): BodyPathOf {
  const roots = new Map<string, string>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const name = variable.variable.name.value;
      const type = typeFromAST(schema, variable.type) as GraphQLInputType | undefined;
      const inputObject = type !== undefined && isInputObjectType(getNullableType(type));
      roots.set(name, bodyPaths[name] ?? (inputObject ? "" : name));
    }
  }
  return (path) => {
    const match = /^(\w+)(.*)$/s.exec(path);
    if (!match) return path;
    const [, variable = "", rest = ""] = match;
    const root = roots.get(variable) ?? variable;
    return root ? `${root}${rest}` : rest.replace(/^\./, "");
  };
}
