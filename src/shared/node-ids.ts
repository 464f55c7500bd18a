import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { type GraphQLResolveInfo, isObjectType } from "graphql";
import type { Context } from "../context.ts";
import { ValidationError } from "./errors.ts";

/**
 * Global ids (Relay): opaque base64 of `<Type>:<key>`, the key being the entity's primary key
 * (a compound key is JSON). Every entity type implements `Node`; its own key stays readable
 * as `databaseId` (or `name` where the name is the key, D-18), which REST and the arguments use.
 */
export const encodeNodeId = (typename: string, key: bigint | number | string) =>
  encodeGlobalID(typename, key);

export function decodeNodeId(globalId: string): { typename: string; id: string } {
  try {
    return decodeGlobalID(globalId);
  } catch {
    throw badNodeId(globalId);
  }
}

/** The options of every entity's `id` field. */
export const NODE_ID = {
  description: "Global id (Relay `Node`): opaque and unique across types; `node(id:)` reads it back.",
} as const;

type GlobalId = { typename: string; id: string };

/**
 * The read rule of an entity type beyond "any admin-API credential", given as its GraphQL
 * type's `extensions.nodeAccess` so that `node(id:)` applies the same rule as the entity's own
 * query: `check` throws as that query's authScopes would, `readable` hides a row the query
 * would not list (read as null, like an entity that does not exist).
 */
export type NodeAccess<Row> = {
  check?: (ctx: Context) => void;
  readable?: (ctx: Context, row: Row) => boolean;
};

/**
 * `node`/`nodes`: only ids of types that implement Node (anything else is a ValidationError,
 * not an internal error); each type's `findUnique` loads by key, then its access rule applies.
 */
export async function readNodes(
  ids: readonly GlobalId[],
  info: GraphQLResolveInfo,
  ctx: Context,
  load: () => unknown,
): Promise<unknown[]> {
  const access = ids.map((id) => {
    const type = info.schema.getType(id.typename);
    if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === "Node")) {
      throw badNodeId(encodeNodeId(id.typename, id.id));
    }
    return type.extensions.nodeAccess as NodeAccess<unknown> | undefined;
  });
  for (const rule of new Set(access)) rule?.check?.(ctx);
  const rows = (await load()) as unknown[];
  return rows.map((row, i) => (row != null && (access[i]?.readable?.(ctx, row) ?? true) ? row : null));
}

function badNodeId(globalId: string): ValidationError {
  return new ValidationError(`"${globalId}" is not a global id this API issued`, [
    { path: "id", message: "unknown global id" },
  ]);
}

/** The integer key of a global id (a ValidationError when it is none). */
export function integerKey(id: string): number {
  if (!/^-?\d{1,15}$/.test(id)) throw badNodeId(encodeNodeId("?", id));
  return Number(id);
}

/** The compound key of a global id, e.g. a flag environment's `[featureName, environmentName]`. */
export function compoundKey(id: string, size: number): string[] {
  try {
    const parts: unknown = JSON.parse(id);
    if (Array.isArray(parts) && parts.length === size && parts.every((p) => typeof p === "string")) {
      return parts;
    }
  } catch {}
  throw badNodeId(encodeNodeId("?", id));
}
