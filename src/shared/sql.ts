import {
  type ArgScalarType,
  type ArgType,
  ColumnTypeEnum,
  type SqlQuery,
  type SqlResultSet,
} from "@prisma/driver-adapter-utils";
import type { Db, Tx } from "../db/database.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { directStatementsOf } from "./direct-statements.ts";

/**
 * Hand-written statements, used like `$queryRaw`:
 *
 *   const rows = await sqlOf(w.tx).query<{ name: string }>`SELECT name FROM "Feature" WHERE ...`;
 *
 * A fragment built with `Prisma.sql` (joins, optional conditions) is passed as the template.
 * Values are always parameters. On `w.tx` a statement runs in the write's transaction, beside
 * its model queries. It goes to Prisma's driver adapter (src/shared/direct-statements.ts) with the
 * values `$queryRaw` would send and answers the rows `$queryRaw` would answer (bigint, Date,
 * Decimal, parsed JSON): test/foundation/sql-client.test.ts holds the two paths to the same answers.
 * A transaction not opened by `openTransaction` falls back to `$queryRaw` itself.
 */
export type SqlClient = {
  query<T = unknown>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T[]>;
  execute(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

/** The statements of `db`: a client, or the transaction of a `runWrite`. */
export function sqlOf(db: Db | Tx): SqlClient {
  return {
    async query<T>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const statement = statementOf(strings, values);
      const direct = await directStatementsOf(db);
      if (!direct) return db.$queryRaw<T[]>(statement);
      return rowsOf(await direct.queryRaw(queryOf(statement))) as T[];
    },
    async execute(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) {
      const statement = statementOf(strings, values);
      const direct = await directStatementsOf(db);
      if (!direct) return db.$executeRaw(statement);
      return direct.executeRaw(queryOf(statement));
    },
  };
}

function statementOf(strings: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
}

/** The statement and its values as `$queryRaw` hands them to the adapter. */
function queryOf(statement: Prisma.Sql): SqlQuery {
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
function rowsOf({ columnNames, columnTypes, rows }: SqlResultSet): Record<string, unknown>[] {
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
  [ColumnTypeEnum.Time]: (value) => new Date(`1970-01-01T${value as string}Z`),
  [ColumnTypeEnum.Json]: (value) => (typeof value === "string" ? JSON.parse(value) : value),
  [ColumnTypeEnum.Bytes]: (value) => new Uint8Array(value as ArrayLike<number>),
};
const ARRAY_OF: Partial<Record<number, number>> = {
  [ColumnTypeEnum.Int64Array]: ColumnTypeEnum.Int64,
  [ColumnTypeEnum.NumericArray]: ColumnTypeEnum.Numeric,
  [ColumnTypeEnum.DateTimeArray]: ColumnTypeEnum.DateTime,
  [ColumnTypeEnum.DateArray]: ColumnTypeEnum.Date,
  [ColumnTypeEnum.TimeArray]: ColumnTypeEnum.Time,
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
