import { initGraphQLTada } from "gql.tada";
import type { introspection } from "../graphql-env.d.ts";

/**
 * Typed GraphQL documents: `graphql(...)` infers each operation's result and variables from
 * `schema/schema.graphql` (through src/graphql-env.d.ts, which the build generates from it),
 * so a query that no longer matches the schema fails the type check.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown; Long: number };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from "gql.tada";
export { readFragment } from "gql.tada";
