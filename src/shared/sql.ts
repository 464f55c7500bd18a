import {
  type ArgScalarType,
  type ArgType,
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
} from "@prisma/driver-adapter-utils";
import type { Db, Tx } from "../db/database.ts";
import { Prisma } from "../generated/prisma/client.ts";

/**
 * Hand-written statements, sent straight to Prisma's driver adapter: the same connection, the
 * same transaction, the same prepared-statement names and the same values in and out as
 * `$queryRaw` / `$executeRaw`, without the Prisma client's runtime around each statement
 * (~0.09 ms of CPU per statement and ~0.3 ms per transaction, a third of a toggle's server
 * CPU; docs/performance.md, "Statements past the Prisma client"). Used like `$queryRaw`:
 *
 *   const rows = await sqlOf(w.tx).query<{ name: string }>`SELECT name FROM "Feature" WHERE ...`;
 *
 * Model queries stay with Prisma; both run in one transaction when `runWrite` opened it
 * (src/shared/sql-transaction.ts).
 */
export type SqlClient = {
  query<T = unknown>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T[]>;
  execute(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

export type Queryable = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

const clients = new WeakMap<object, SqlClient>();
const adapters = new WeakMap<object, () => Promise<SqlDriverAdapter>>();

/** The statements of `db` (a client, or a transaction `runWrite` opened). */
export function sqlOf(db: Db | Tx): SqlClient {
  // A transaction opened elsewhere (a job's, a bootstrap's) keeps Prisma's raw statements.
  return clients.get(db) ?? prismaRaw(db);
}

/** Gives `db` statements outside transactions, over an adapter of its own factory. */
export function registerClient(db: Db, factory: SqlMigrationAwareDriverAdapterFactory): void {
  let adapter: Promise<SqlDriverAdapter> | undefined;
  const connected = () => {
    adapter ??= factory.connect();
    return adapter;
  };
  adapters.set(db, connected);
  clients.set(db, clientOver(connected));
}

/** The driver adapter `db` was registered with (src/shared/sql-transaction.ts opens its transactions). */
export function adapterOf(db: Db): (() => Promise<SqlDriverAdapter>) | undefined {
  return adapters.get(db);
}

/** Makes `sqlOf(tx)` send its statements to `target` (a transaction of the adapter). */
export function bindStatements(tx: Tx, target: () => Promise<Queryable>): void {
  clients.set(tx, clientOver(target));
}

function clientOver(target: () => Promise<Queryable>): SqlClient {
  return {
    async query<T>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const query = toQuery(strings, values);
      return rowsOf((await target()).queryRaw(query)) as Promise<T[]>;
    },
    async execute(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      return (await target()).executeRaw(toQuery(strings, values));
    },
  };
}

function prismaRaw(db: Db | Tx): SqlClient {
  const sql = (strings: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
    strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
  return {
    query: <T>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      db.$queryRaw<T[]>(sql(strings, values)),
    execute: (strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      db.$executeRaw(sql(strings, values)),
  };
}

/** The statement and its values as `$queryRaw` hands them to the adapter. */
function toQuery(strings: TemplateStringsArray | Prisma.Sql, values: unknown[]): SqlQuery {
  const statement = strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
  const args: unknown[] = [];
  const argTypes: ArgType[] = [];
  for (const value of statement.values) {
    if (Array.isArray(value)) {
      const items = value.map(argOf);
      args.push(items.map(([arg]) => arg));
      argTypes.push({ scalarType: items[0]?.[1] ?? "unknown", arity: "list" });
    } else {
      const [arg, scalarType] = argOf(value);
      args.push(arg);
      argTypes.push({ scalarType, arity: "scalar" });
    }
  }
  return { sql: statement.text, args, argTypes };
}

/** A value as Prisma's client serialises a raw statement's parameter (and its type). */
function argOf(value: unknown): [unknown, ArgScalarType] {
  if (value === null || value === undefined) return [null, "unknown"];
  switch (typeof value) {
    case "string":
      return [value, "string"];
    case "number":
      return [value, "decimal"];
    case "bigint":
      return [value.toString(), "bigint"];
    case "object":
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new TypeError("Invalid Date in a statement's values.");
        return [value, "datetime"];
      }
      if (Prisma.Decimal.isDecimal(value)) return [value.toJSON(), "decimal"];
      if (ArrayBuffer.isView(value)) return [value, "bytes"];
      return [JSON.stringify(value), "unknown"];
    default:
      return [value, "unknown"];
  }
}

/** The rows as objects, with the values `$queryRaw` answers (bigint, Date, Decimal, JSON). */
async function rowsOf(pending: Promise<SqlResultSet>): Promise<Record<string, unknown>[]> {
  const { columnNames, columnTypes, rows } = await pending;
  const converters = columnTypes.map(converterOf);
  return rows.map((row) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) {
      const value = row[i];
      object[columnNames[i] as string] = value === null ? null : (converters[i] as Converter)(value);
    }
    return object;
  });
}

type Converter = (value: unknown) => unknown;
const same: Converter = (value) => value;
const SCALAR: Partial<Record<number, Converter>> = {
  [ColumnTypeEnum.Int64]: (value) => BigInt(value as string),
  [ColumnTypeEnum.Numeric]: (value) => new Prisma.Decimal(value as string),
  [ColumnTypeEnum.DateTime]: (value) => new Date(value as string),
  [ColumnTypeEnum.Date]: (value) => new Date(value as string),
  [ColumnTypeEnum.Json]: (value) => (typeof value === "string" ? JSON.parse(value) : value),
  [ColumnTypeEnum.Bytes]: (value) => new Uint8Array(value as ArrayLike<number>),
};
const ARRAY_OF: Partial<Record<number, number>> = {
  [ColumnTypeEnum.Int64Array]: ColumnTypeEnum.Int64,
  [ColumnTypeEnum.NumericArray]: ColumnTypeEnum.Numeric,
  [ColumnTypeEnum.DateTimeArray]: ColumnTypeEnum.DateTime,
  [ColumnTypeEnum.DateArray]: ColumnTypeEnum.Date,
  [ColumnTypeEnum.JsonArray]: ColumnTypeEnum.Json,
};

function converterOf(type: number): Converter {
  const scalar = SCALAR[type];
  if (scalar) return scalar;
  const element = ARRAY_OF[type];
  if (element === undefined) return same;
  const convert = SCALAR[element] as Converter;
  return (value) => (value as unknown[]).map((item) => (item === null ? null : convert(item)));
}
