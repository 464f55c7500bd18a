import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventFields } from "../../rest/fragments.ts";
import { probeHorizon } from "../../src/events/horizon.ts";
import { recordEvent } from "../../src/events/record.ts";
import { rollUpEventCounts } from "../../src/modules/events/event-counts.job.ts";
import { runWrite } from "../../src/shared/write.ts";
import { createTestApp, flagCreatedEvent, systemWriteContext, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";
import { createSqlCounter } from "../helpers/sql-counter.ts";

/**
 * Event-search totals come from a rollup (EventCount, up to a committed horizon) plus a live
 * count of newer events. These tests pin that every total stays exact before, between and
 * after rollups, and when a transaction commits an older event id after newer ones.
 */
const counter = createSqlCounter();
let t: TestApp;

type Seeded = {
  type: string;
  project: string;
  featureName: string | null;
  environment: string | null;
  createdByUserId: number;
  createdAt: Date;
  ref: string;
};
const seeded: Seeded[] = [];

/** `n` events spread over types, projects, flags, environments, creators and three days. */
async function seed(n: number) {
  const rows = Array.from({ length: n }, (_, k) => {
    const i = seeded.length + k;
    return {
      type: ["feature-created", "feature-updated", "feature-archived"][i % 3]!,
      project: ["p1", "p2"][i % 2]!,
      featureName: [null, "f1", "f2", "f3"][i % 4]!,
      environment: [null, "development", "production"][i % 3]!,
      createdByUserId: [1, 2, -42][i % 3]!,
      createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 3), i % 24)),
      ref: `ref-${i}`,
    };
  });
  // Direct write: many events with chosen types, projects, creators and days, stored at once,
  // so that every expected total is known; API calls record events of their own.
  await t.database.prisma.event.createMany({
    data: rows.map(({ ref, ...r }) => ({ ...r, createdBy: "seed", tags: [], data: { i: r.type, ref } })),
  });
  seeded.push(...rows);
}

const day = (d: Date) => d.toISOString().slice(0, 10);
/** REST query → the events it must count. */
const CASES: [string, (e: Seeded) => boolean][] = [
  ["", () => true],
  ["feature=IS:f1", (e) => e.featureName === "f1"],
  ["feature=IS_ANY_OF:f1,f2,f1", (e) => e.featureName === "f1" || e.featureName === "f2"],
  ["project=IS:p2", (e) => e.project === "p2"],
  ["type=IS_ANY_OF:feature-created,feature-archived", (e) => e.type !== "feature-updated"],
  ["environment=IS:production", (e) => e.environment === "production"],
  ["createdBy=IS:1", (e) => e.createdByUserId === 1],
  ["createdBy=IS_ANY_OF:01,-42", (e) => e.createdByUserId === 1 || e.createdByUserId === -42],
  ["from=IS:2026-01-02", (e) => day(e.createdAt) >= "2026-01-02"],
  ["to=IS:2026-01-02", (e) => day(e.createdAt) <= "2026-01-02"],
  ["from=IS:2026-01-02&to=IS:2026-01-02", (e) => day(e.createdAt) === "2026-01-02"],
  ["project=IS:p1&type=IS:feature-updated", (e) => e.project === "p1" && e.type === "feature-updated"],
  [
    "feature=IS_ANY_OF:f1,f2&type=IS_ANY_OF:feature-created,feature-archived",
    (e) => (e.featureName === "f1" || e.featureName === "f2") && e.type !== "feature-updated",
  ],
  [
    "environment=IS:production&createdBy=IS_ANY_OF:1,-42",
    (e) => e.environment === "production" && (e.createdByUserId === 1 || e.createdByUserId === -42),
  ],
  ["feature=IS:f1&createdBy=IS:1", (e) => e.featureName === "f1" && e.createdByUserId === 1],
  [
    "project=IS:p1&type=IS:feature-updated&environment=IS:development",
    (e) => e.project === "p1" && e.type === "feature-updated" && e.environment === "development",
  ],
  ["feature=IS:f3&from=IS:2026-01-03", (e) => e.featureName === "f3" && day(e.createdAt) >= "2026-01-03"],
  // Free text: counted once, then remembered up to the rollup's horizon plus newer matches.
  ["query=ARCHIVED", (e) => e.type === "feature-archived"],
  ["query=feature-", () => true],
  ["query=archived&project=IS:p1", (e) => e.type === "feature-archived" && e.project === "p1"],
  // Several words: the index is asked for the most distinctive one ("1234"), the candidates
  // are checked against the whole term; a common word ("feature") falls back to the whole term.
  ["query=REF-1234", (e) => e.ref.startsWith("ref-1234")],
  ["query=ref-12", (e) => e.ref.startsWith("ref-12")],
  ["query=ref-123", (e) => e.ref.startsWith("ref-123")],
  ["query=feature-created", (e) => e.type === "feature-created"],
  ["query=created&type=IS:feature-created", (e) => e.type === "feature-created"],
];

/**
 * Per query, the events that are not seeded (the test of an older transaction records two
 * through the API) that it counts: that test adds what its events added to each total.
 */
const unseeded = new Map<string, number>();

async function caseTotals() {
  const totals = new Map<string, number>();
  for (const [query] of CASES) {
    totals.set(query, (await t.rest("GET", `/api/admin/search/events?limit=5&${query}`)).body.total);
  }
  return totals;
}

async function expectExactTotals() {
  for (const [query, matches] of CASES) {
    const res = await t.rest("GET", `/api/admin/search/events?limit=5&${query}`);
    expect(res.status, query).toBe(200);
    const expected = seeded.filter(matches).length + (unseeded.get(query) ?? 0);
    expect(res.body.total, query).toBe(expected);
    expect(res.body.events, query).toHaveLength(Math.min(5, expected));
  }
  const all = await t.gql<{ events: { totalCount: number } }>("{ events(first: 1) { totalCount } }");
  expect(all.data?.events.totalCount).toBe(seeded.length + (unseeded.get("") ?? 0));
}

beforeAll(async () => {
  t = await createTestApp({}, { wrapAdapter: counter.wrap });
});
afterAll(() => t.close());

describe("event-search totals over the rollup", () => {
  it("stay exact before the first rollup, after it (in chunks), and after more events", async () => {
    // More matches of "feature-" than event search counts afresh, so its remembered count is used.
    await seed(2100);
    await expectExactTotals();
    expect(await rollUpEventCounts(t.database.prisma, { chunk: 700 })).not.toBeNull();
    await expectExactTotals();
    await seed(25);
    await expectExactTotals();
    await rollUpEventCounts(t.database.prisma);
    await expectExactTotals();
    await rollUpEventCounts(t.database.prisma); // nothing new: a no-op
    await expectExactTotals();
  });

  it("take two-filter totals from the pair rollup, except flag with creator", async () => {
    await rollUpEventCounts(t.database.prisma);
    const usesRollup = async (query: string) => {
      const { statements } = await counter.during(() => t.rest("GET", `/api/admin/search/events?${query}`));
      return statements.some((s) => s.includes('"EventCount"'));
    };
    expect(await usesRollup("project=IS:p1&type=IS:feature-updated")).toBe(true);
    expect(await usesRollup("type=IS:feature-created&createdBy=IS:1")).toBe(true);
    expect(await usesRollup("feature=IS:f1&createdBy=IS:1")).toBe(false);
    expect(await usesRollup("project=IS:p1&from=IS:2026-01-02")).toBe(false);
  });

  it("answer a REST search in one statement, items included (the credential is remembered)", async () => {
    await seed(9); // at least three feature-created, whatever ran before
    await t.rest("GET", "/api/admin/search/events?limit=1"); // first use of the token reads it
    const { result, statements } = await counter.during(() =>
      t.rest("GET", "/api/admin/search/events?type=IS:feature-created&limit=3"),
    );
    expect(result.status).toBe(200);
    expect(result.body.events).toHaveLength(3);
    expect(statements).toHaveLength(1);
  });

  it("count a common free-text term searched concurrently for the first time once", async () => {
    // More matches than event search counts afresh (as the first test seeds), whatever ran before.
    await seed(Math.max(3, 2100 - seeded.length));
    await rollUpEventCounts(t.database.prisma);
    const { result, statements } = await counter.during(() =>
      Promise.all([1, 2, 3].map(() => t.rest("GET", "/api/admin/search/events?query=FEATURE"))),
    );
    // Every seeded event's data holds "feature-"; the older-transaction test's two hold no "feature".
    expect(result.map((r) => r.body.total)).toEqual([seeded.length, seeded.length, seeded.length]);
    expect(statements.filter((s) => s.includes("matching AS MATERIALIZED"))).toHaveLength(1);
  });

  it("return the same items as the per-flag listing (spec 4.8)", async () => {
    await seed(8); // events of f2, whatever ran before
    const res = await t.gql<{ eventSearch: { edges: { node: unknown }[] } }>(
      `{ eventSearch(filter: { feature: { operator: IS, values: ["f2"] } }, first: 1000) { edges { node { ...EventFields } } } }
      ${print(EventFields)}`,
    );
    const listing = await t.rest("GET", "/api/admin/events/f2?limit=1000");
    expect(res.data?.eventSearch.edges.map((e) => e.node)).toEqual(listing.body.events);
  });

  it("draw an event id only after the transaction holds an xid, which the horizon then lists", async () => {
    const db = t.database.prisma;
    const [column] = await db.$queryRawUnsafe<{ d: string }[]>(
      `SELECT column_default AS d FROM information_schema.columns WHERE table_name = 'Event' AND column_name = 'id'`,
    );
    expect(column?.d).toBe("vexil_next_event_id()");
    const xidOf = async (tx: typeof db) =>
      (
        await tx.$queryRawUnsafe<{ x: string | null }[]>("SELECT pg_current_xact_id_if_assigned()::text AS x")
      )[0]?.x;
    await db.$transaction(async (tx) => {
      expect(await xidOf(tx as typeof db)).toBeNull();
      const [drawn] = await tx.$queryRawUnsafe<{ id: bigint }[]>("SELECT vexil_next_event_id() AS id");
      const xid = await xidOf(tx as typeof db);
      expect(xid).not.toBeNull();
      // PGlite has one connection, held by this transaction: the outside view needs PostgreSQL.
      if (process.env.TEST_DATABASE_URL) {
        const horizon = await probeHorizon(db);
        expect(horizon.cutoff).toBeGreaterThanOrEqual(BigInt(drawn!.id));
        expect(horizon.running).toContain(xid);
      }
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "count an event whose transaction took its id before newer events and committed after the rollup",
    async () => {
      const db = t.database.prisma;
      const before = await caseTotals();
      let release = () => {};
      let recorded = () => {};
      const olderRecorded = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      // Direct write: an API call's transaction cannot be held open while a newer one commits.
      const older = runWrite(systemWriteContext(t), async (w) => {
        await recordEvent(w, flagCreatedEvent("late", "p1", "late-note"));
        recorded();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      await olderRecorded;
      await createFlag(t, "late", { description: "late-note" }); // a newer id, committed first
      const total = async (query: string) =>
        (await t.rest("GET", `/api/admin/search/events?${query}`)).body.total as number;
      expect(await total("feature=IS:late")).toBe(1);
      expect(await total("query=late-note")).toBe(1);
      // The older transaction still runs: a rollup now must not move past its id, or the
      // event it commits below the rollup's horizon would never be counted.
      await rollUpEventCounts(db, { maxWaitMs: 0 });
      release();
      await older;
      expect(await total("feature=IS:late")).toBe(2);
      expect(await total("query=late-note")).toBe(2);
      expect(await rollUpEventCounts(db)).not.toBeNull();
      expect(await total("feature=IS:late")).toBe(2);
      expect(await total("query=late-note")).toBe(2);
      expect(await total("project=IS:p1")).toBe(seeded.filter((e) => e.project === "p1").length + 1);
      expect(await total("")).toBe(seeded.length + 2);
      // The totals the other tests check count these two events too.
      for (const [query, after] of await caseTotals()) {
        unseeded.set(query, (unseeded.get(query) ?? 0) + after - before.get(query)!);
      }
    },
  );
});
