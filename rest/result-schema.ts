import type { TadaDocumentNode } from "gql.tada";
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { z } from "zod";
import { schema } from "../src/schema.ts";

// biome-ignore lint/suspicious/noExplicitAny: any typed fragment
type AnyFragment = TadaDocumentNode<any, any, { fragment: string; on: string; masked: boolean }>;

/** A zod schema in place of a field's GraphQL type, by dotted field path (lists not counted: `strategies.parameters`). */
export type Narrowing = Record<string, z.ZodType>;

const SCALARS: Record<string, () => z.ZodType> = {
  String: () => z.string(),
  ID: () => z.string(),
  Int: () => z.number().int(),
  Long: () => z.number().int(),
  Float: () => z.number(),
  Boolean: () => z.boolean(),
  DateTime: () => z.iso.datetime(),
  JSON: () => z.unknown(),
};

/**
 * The zod schema of what a typed fragment (rest/graphql.ts) answers, read from the GraphQL schema:
 * the selected fields under their aliases, with their types, nullability and descriptions. A REST
 * answer that is GraphQL's data as it is (or in an envelope) declares it with this instead of
 * restating the GraphQL types by hand: the OpenAPI document and the test suite's answer checks
 * (`checkRestResponses`) use it like any response schema. `narrowing` gives a field what Unleash's
 * schema says more precisely than GraphQL's type (a JSON field's shape, a literal); a narrowing
 * for a field the fragment does not select is a bug, refused when the route module loads.
 */
export function resultSchema(fragment: AnyFragment, narrowing: Narrowing = {}): z.ZodObject {
  const [main] = fragment.definitions;
  if (main?.kind !== Kind.FRAGMENT_DEFINITION) throw new Error("resultSchema takes a fragment");
  const type = schema.getType(main.typeCondition.name.value);
  if (!isObjectType(type))
    throw new Error(`resultSchema: ${main.typeCondition.name.value} is no object type`);
  return walked(fragment, narrowing, main.name.value, (walk) => objectOf(type, main.selectionSet, walk, ""));
}

/**
 * The zod schema of an operation's first root field: what a route without `respond` answers
 * (typedRoute declares it for such a route that gives no response schema of its own).
 */
export function firstFieldSchema(document: DocumentNode, narrowing: Narrowing = {}): z.ZodType {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const root = operation && schema.getRootType(operation.operation);
  const [first] = operation?.selectionSet.selections ?? [];
  if (!root || first?.kind !== Kind.FIELD) throw new Error("firstFieldSchema takes an operation");
  const field = root.getFields()[first.name.value];
  if (!field) throw new Error(`firstFieldSchema: ${root.name} has no field ${first.name.value}`);
  const name = operation.name?.value ?? first.name.value;
  return walked(document, narrowing, name, (walk) => typeOf(field.type, first.selectionSet, walk, ""));
}

/** Builds a schema with the document's fragments at hand, then refuses narrowings of fields it lacks. */
function walked<T>(document: DocumentNode, narrowing: Narrowing, name: string, build: (walk: Walk) => T): T {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const used = new Set<string>();
  const result = build({ fragments, narrowing, used });
  const unused = Object.keys(narrowing).filter((path) => !used.has(path));
  if (unused.length > 0) throw new Error(`resultSchema(${name}): no field ${unused.join(", ")}`);
  return result;
}

type Walk = { fragments: Map<string, FragmentDefinitionNode>; narrowing: Narrowing; used: Set<string> };

function objectOf(type: GraphQLObjectType, selectionSet: SelectionSetNode, walk: Walk, path: string) {
  const shape: Record<string, z.ZodType> = {};
  const collect = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const spread = walk.fragments.get(selection.name.value);
        if (!spread) throw new Error(`resultSchema: fragment ${selection.name.value} is not given`);
        collect(spread.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else {
        const key = selection.alias?.value ?? selection.name.value;
        if (selection.name.value === "__typename") {
          shape[key] = z.string();
          continue;
        }
        const field = type.getFields()[selection.name.value];
        if (!field) throw new Error(`resultSchema: ${type.name} has no field ${selection.name.value}`);
        const at = path ? `${path}.${key}` : key;
        const narrowed = walk.narrowing[at];
        if (narrowed) walk.used.add(at);
        const value = narrowed ?? typeOf(field.type, selection.selectionSet, walk, at);
        shape[key] = field.description && !narrowed?.description ? value.describe(field.description) : value;
      }
    }
  };
  collect(selectionSet);
  return z.object(shape);
}

function typeOf(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  walk: Walk,
  path: string,
): z.ZodType {
  const inner = getNullableType(type);
  let value: z.ZodType;
  if (isListType(inner)) value = z.array(typeOf(inner.ofType, selectionSet, walk, path));
  else if (isEnumType(inner)) value = z.enum(inner.getValues().map((v) => v.name));
  else if (isObjectType(inner) && selectionSet) value = objectOf(inner, selectionSet, walk, path);
  else {
    const scalar = SCALARS[inner.name];
    if (!scalar) throw new Error(`resultSchema: no zod type for ${inner.name} (at ${path})`);
    value = scalar();
  }
  return isNonNullType(type) ? value : value.nullable();
}
