import { initGraphQLTada } from "gql.tada";
import type { introspection } from "../src/generated/graphql-env.d.ts";

/**
 * Typed GraphQL documents for REST routes, as the UI's (ui/src/lib/graphql.ts): `graphql(...)`
 * infers an operation's result and variables from `schema/schema.graphql` (through
 * src/generated/graphql-env.d.ts, which the build generates from it), so a route's `respond`
 * reads its data with the schema's types and no cast. Fragments are not masked: a fragment's
 * fields are part of the result that spreads it.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; JSON: unknown; Long: number };
  disableMasking: true;
}>();

export type { ResultOf } from "gql.tada";
