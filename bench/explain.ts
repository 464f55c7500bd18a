import type { Context } from "../src/context.ts";
import type { Prisma, PrismaClient } from "../src/generated/prisma/client.ts";
import { EVENT_ORDER, eventSearchQuery } from "../src/modules/events/event-search.read.ts";
import {
  type FeatureSearchArgs,
  featureSearchStatement,
  searchOrdering,
} from "../src/modules/search/feature-search.read.ts";
import { searchItemsSql } from "../src/modules/search/feature-search-items.read.ts";
import { type Ordering, pageRequest } from "../src/shared/pagination.ts";

/** EXPLAIN ANALYZE of the statements the hot searches run, built by the services themselves. */
export async function explainHotQueries(db: PrismaClient): Promise<Record<string, string>> {
  const bench = await db.user.findUnique({ where: { username: "bench" } });
  const userId = bench?.id ?? null;
  const page = (limit: number, ordering: Ordering) =>
    pageRequest({ first: limit }, { defaultLimit: limit, maxLimit: limit }, ordering);
  const page50 = page(50, EVENT_ORDER);
  const [cursor] = await db.$queryRaw<{ throughId: bigint }[]>`SELECT "throughId" FROM "EventCountCursor"`;
  const horizon = BigInt(cursor?.throughId ?? 0);
  const day30 = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const dashboard = {
    sort: { field: "CREATED_AT" as const, direction: "DESC" as const },
    favoritesFirst: true,
    userId,
  };
  // What the server runs for the benchmark user's REST call: page, total and the items.
  const ctx = { now: () => new Date(), principal: { kind: "user", userId } } as unknown as Context;
  const flagSearch = (args: FeatureSearchArgs) =>
    featureSearchStatement(args, page(25, searchOrdering(args)), (names) => searchItemsSql(ctx, names));
  const statements: Record<string, Prisma.Sql> = {
    "flag search: dashboard default": flagSearch(dashboard),
    "flag search: query=flag-004": flagSearch({ ...dashboard, filter: { query: "flag-004" } }),
    "flag search: tag=INCLUDE:team:search": flagSearch({
      ...dashboard,
      filter: { tag: { operator: "INCLUDE", values: [{ type: "team", value: "search" }] } },
    }),
    "event search: no filter": eventSearchQuery({}, page50),
    "event search: feature=IS:flag-04242": eventSearchQuery(
      { feature: { operator: "IS", values: ["flag-04242"] } },
      page50,
    ),
    "event search: type=IS:feature-strategy-update": eventSearchQuery(
      { type: { operator: "IS", values: ["feature-strategy-update"] } },
      page50,
    ),
    "event search: from/to one day": eventSearchQuery({ from: day30, to: day30 }, page50),
    "event search: project=IS:project-07&type=IS:feature-updated (no rollup)": eventSearchQuery(
      {
        project: { operator: "IS", values: ["project-07"] },
        type: { operator: "IS", values: ["feature-updated"] },
      },
      page50,
    ),
    "event search: query=flag-04242": eventSearchQuery({ query: "flag-04242" }, page50),
    "event search: query=Change 123456": eventSearchQuery({ query: "Change 123456" }, page50),
    "event search: query=growth (first time)": eventSearchQuery({ query: "growth" }, page50),
    // The plan of a remembered term (the remembered count is a literal; its value does not matter here).
    "event search: query=growth (remembered)": eventSearchQuery({ query: "growth" }, page50, {
      through: horizon,
      count: 0n,
    }),
  };
  const plans: Record<string, string> = {};
  for (const [name, statement] of Object.entries(statements)) {
    const rows = await db.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
      `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`,
      ...statement.values,
    );
    plans[name] = rows.map((r) => r["QUERY PLAN"]).join("\n");
    console.log(`\n=== ${name}\n${plans[name]}`);
  }
  return plans;
}
