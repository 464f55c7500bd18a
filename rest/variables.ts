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

/**
 * A route's variables in the shape its GraphQL inputs take: fields the inputs do not know are
 * dropped, as Unleash ignores fields it does not use (`sendEmail` on user creation, say); a
 * single value where a list belongs is refused, where GraphQL would quietly make it a list of
 * one (a JSON body is read as JSON says). GraphQL itself stays strict.
 */
export function restVariables(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const pruned: Record<string, unknown> = { ...variables };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const name = variable.variable.name.value;
      const type = typeFromAST(schema, variable.type) as GraphQLInputType | undefined;
      if (type && name in pruned) pruned[name] = prune(type, pruned[name], name);
    }
  }
  return pruned;
}

function prune(type: GraphQLInputType, value: unknown, path: string): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (value === null || value === undefined) return value;
    if (!Array.isArray(value)) throw new ValidationError(`"${fieldPath(path)}" must be a list.`);
    return value.map((item, i) => prune(inner.ofType, item, `${path}[${i}]`));
  }
  if (!isInputObjectType(inner) || typeof value !== "object" || value === null || Array.isArray(value)) {
    return value;
  }
  const fields = inner.getFields();
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields[key];
    if (field) kept[key] = prune(field.type, item, `${path}.${key}`);
  }
  return kept;
}

/** The path as the REST caller wrote it: without the GraphQL variable an input object sits in. */
function fieldPath(path: string): string {
  const dot = path.indexOf(".");
  return dot === -1 ? path : path.slice(dot + 1);
}
