import type { Tx } from "../db/database.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { sqlOf } from "./sql.ts";

/** The tables whose rows a single-row change locks, with their key column. */
const KEY_COLUMN = {
  Project: "id",
  Role: "id",
  User: "id",
  Segment: "id",
  Addon: "id",
  ApiToken: "id",
  PersonalAccessToken: "id",
  ContextField: "name",
  Environment: "name",
  TagType: "name",
  StrategyDefinition: "name",
  PublicSignupToken: "id",
  Setting: "name",
} as const;

/**
 * Locks one row until the transaction ends, before a change reads it. Two concurrent changes
 * of the same row then run one after the other at READ COMMITTED: the second compares with
 * what the first committed (so an unchanged value records no second event) and a second delete
 * finds nothing (404). An absent row locks nothing; the caller's own read reports it.
 * (Flags have their own: `lockFeature`.)
 */
export async function lockRow(tx: Tx, table: keyof typeof KEY_COLUMN, key: string | number): Promise<void> {
  await sqlOf(tx).query`SELECT 1 AS locked FROM ${Prisma.raw(`"${table}"`)}
    WHERE ${Prisma.raw(`"${KEY_COLUMN[table]}"`)} = ${key} FOR NO KEY UPDATE`;
}
