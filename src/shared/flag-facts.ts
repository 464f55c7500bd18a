import DataLoader from "dataloader";
import type { Db } from "../db/database.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { sqlOf } from "./sql.ts";
import { textArray } from "./text-array.ts";

/**
 * One kind of fact about flags that a record of them shows besides its rows, served by the
 * module that owns its tables: the SQL of its rows for `names` (a text[] expression), and each
 * name's value (in the order of `names`) from those rows.
 */
export type FlagFact<T, R = never> = {
  sql: (names: Prisma.Sql) => Prisma.Sql;
  valuesOf: (names: string[], rows: R[]) => T[];
};

/** Per flag: a value per environment name. */
export type ByEnvironment<T> = Map<string, T>;

// biome-ignore lint/suspicious/noExplicitAny: a record of facts of any row type
type Facts = Record<string, FlagFact<unknown, any>>;
type ValueOf<F> = F extends FlagFact<infer T, infer _R> ? T : never;

/**
 * The facts of `facts` loaded together: a request for a flag record (a toggle's answer) asks
 * for favourite, collaborators and open change requests at once, and gets them in one statement
 * instead of one round trip each. Only the kinds some field asked for are computed (a list of
 * every flag that shows only `favorite` does not aggregate their events). Answers a loader
 * function per kind.
 */
export function flagFactsLoader<F extends Facts>(db: Db, facts: F) {
  const loader = new DataLoader<{ kind: keyof F & string; name: string }, unknown, string>(
    async (keys) => {
      const namesOf = new Map<keyof F & string, Set<string>>();
      for (const { kind, name } of keys) namesOf.set(kind, (namesOf.get(kind) ?? new Set()).add(name));
      const parts = [...namesOf].map(
        ([kind, names]) =>
          Prisma.sql`${kind}::text, (SELECT COALESCE(json_agg(x), '[]'::json)
            FROM (${(facts[kind] as F[string]).sql(textArray([...names]))}) x)`,
      );
      const [row] = await sqlOf(db).query<{ facts: Record<string, unknown[]> }>`
        SELECT json_build_object(${Prisma.join(parts)}) AS facts`;
      const values = new Map(
        [...namesOf].map(([kind, set]) => {
          const names = [...set];
          const found = (facts[kind] as F[string]).valuesOf(names, row!.facts[kind] as never[]);
          return [kind, new Map(names.map((name, i) => [name, found[i]]))];
        }),
      );
      return keys.map(({ kind, name }) => values.get(kind)?.get(name));
    },
    { cacheKeyFn: ({ kind, name }) => `${kind}\u0000${name}` },
  );
  return <K extends keyof F & string>(kind: K) =>
    (name: string) =>
      loader.load({ kind, name }) as Promise<ValueOf<F[K]>>;
}

/** Rows per flag of `names` (in its order), then per environment. */
export function byFeature<R extends { featureName: string; environmentName: string }, T>(
  names: readonly string[],
  rows: R[],
  value: (row: R) => T,
): ByEnvironment<T>[] {
  const maps = new Map(names.map((n) => [n, new Map<string, T>()]));
  for (const row of rows) maps.get(row.featureName)?.set(row.environmentName, value(row));
  return names.map((n) => maps.get(n) as ByEnvironment<T>);
}
