import type { Prisma, PrismaClient } from "../src/generated/prisma/client.ts";
import { eventSearchQuery } from "../src/modules/search/event-search.ts";
import { featureSearchQuery } from "../src/modules/search/feature-search.ts";

/** EXPLAIN ANALYZE of the statements the hot searches run, built by the services themselves. */
export async function explainHotQueries(db: PrismaClient): Promise<Record<string, string>> {
  const bench = await db.user.findUnique({ where: { username: "bench" } });
  const userId = bench?.id ?? null;
  const page25 = { offset: 0, limit: 25 };
  const page50 = { offset: 0, limit: 50 };
  const dashboard = {
    sort: { field: "CREATED_AT" as const, direction: "DESC" as const },
    favoritesFirst: true,
    userId,
  };
  const statements: Record<string, Prisma.Sql> = {
    "flag search: dashboard default": featureSearchQuery(dashboard, page25),
    "flag search: query=flag-004": featureSearchQuery(
      { ...dashboard, filter: { query: "flag-004" } },
      page25,
    ),
    "flag search: tag=INCLUDE:team:search": featureSearchQuery(
      { ...dashboard, filter: { tag: { operator: "INCLUDE", values: [{ type: "team", value: "search" }] } } },
      page25,
    ),
    "event search: feature=IS:flag-04242 (page)": eventSearchQuery(
      { feature: { operator: "IS", values: ["flag-04242"] } },
      page50,
    ).page,
    "event search: feature=IS:flag-04242 (count)": eventSearchQuery(
      { feature: { operator: "IS", values: ["flag-04242"] } },
      page50,
    ).count,
    "event search: type=IS:feature-strategy-update (count)": eventSearchQuery(
      { type: { operator: "IS", values: ["feature-strategy-update"] } },
      page50,
    ).count,
    "event search: query=flag-04242 (page)": eventSearchQuery({ query: "flag-04242" }, page50).page,
    "event search: query=flag-04242 (count)": eventSearchQuery({ query: "flag-04242" }, page50).count,
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
