import SchemaBuilder, { type OutputType } from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { GraphQLError, Kind } from "graphql";
import type { Context } from "./context.ts";
import type PrismaTypes from "./generated/pothos-types.ts";
import { getDatamodel } from "./generated/pothos-types.ts";
import { requireAuthenticated, requirePermission } from "./modules/access/check.logic.ts";
import type { PermissionCheck } from "./modules/access/permissions.logic.ts";
import { decodeNodeId, encodeNodeId, NODE_ID, readNodes } from "./shared/node-ids.ts";
import type { Connection } from "./shared/pagination.ts";

/**
 * The one SchemaBuilder. Every root field declares `authScopes`: `authenticated` (any valid
 * credential) or `permission` (a named permission, optionally in a project/environment).
 * Scope functions throw AuthenticationRequired / NoAccessError so both GraphQL and REST
 * report the same typed error.
 */
export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; permission: PermissionCheck };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    Long: { Input: bigint; Output: bigint | number };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
  relay: {
    clientMutationId: "omit",
    cursorType: "String",
    nodeTypeOptions: {
      description:
        "An entity with a global id (Relay): clients' caches normalise on it; `node(id:)` reads it back.",
    },
    idFieldOptions: { description: NODE_ID.description },
    encodeGlobalID: encodeNodeId,
    decodeGlobalID: decodeNodeId,
    nodeQueryOptions: {
      description: "Any entity by its global `id` (Relay), or null when there is none.",
      authScopes: { authenticated: true },
      args: { id: { description: "A global id." } },
      resolve: async (_root, args, ctx, info, resolveNode) =>
        (await readNodes([args.id], info, ctx, async () => [await resolveNode(args.id)]))[0],
    },
    nodesQueryOptions: {
      description: "Entities by their global ids (Relay), in order; null for each that does not exist.",
      authScopes: { authenticated: true },
      args: { ids: { description: "Global ids." } },
      resolve: (_root, args, ctx, info, resolveNodes) =>
        readNodes(args.ids, info, ctx, () => resolveNodes(args.ids)),
    },
  },
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      authenticated: () => requireAuthenticated(ctx),
      permission: (check) => requirePermission(ctx, check),
    }),
  },
});

builder.queryType({ description: "Reads of Vexil's flags, projects, environments and audit log." });
builder.mutationType({
  description: "Changes; each runs in one transaction together with the events it records.",
});
builder.subscriptionType({ description: "Live streams over graphql-ws (WebSocket) or SSE." });

builder.scalarType("DateTime", {
  description: "An RFC 3339 timestamp, e.g. 2026-01-31T12:00:00.000Z.",
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString()),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== "string" || Number.isNaN(date.getTime())) {
      throw new GraphQLError("DateTime must be an RFC 3339 timestamp string");
    }
    // RFC 3339 years have four digits; PostgreSQL refuses the extended ones JS can hold.
    const year = date.getUTCFullYear();
    if (year < 1 || year > 9999) throw new GraphQLError("DateTime must be between the years 0001 and 9999");
    return date;
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function parse(ast): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => parse(v));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, parse(f.value)]));
      default:
        throw new GraphQLError("JSON variables are not supported inside literals");
    }
  },
});

builder.scalarType("Long", {
  description: "A 64-bit integer id, serialized as a JSON number (exact up to 2^53).",
  serialize: (value) => Number(value),
  parseValue: (value) => {
    if ((typeof value !== "number" && typeof value !== "string") || !/^\d+$/.test(String(value))) {
      throw new GraphQLError("Long must be a non-negative integer");
    }
    return BigInt(value);
  },
});

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;

/**
 * A Relay connection of `type` with `totalCount`, the nodes matching across all pages (its
 * resolvers answer `toConnection`'s shape, src/shared/pagination.ts).
 */
export function countedConnection<Type extends OutputType<BuilderTypes>>(
  name: string,
  type: Type,
  totalCountDescription: string,
) {
  return builder.connectionObject({
    type,
    name,
    fields: (t) => ({
      totalCount: t.int({
        description: totalCountDescription,
        resolve: (connection) => (connection as unknown as Connection<unknown>).totalCount,
      }),
    }),
  });
}
