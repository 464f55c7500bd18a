import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, enableFlag, favoriteFlag, gqlOk, reportMetrics } from "../helpers/builders.ts";

/*
 * Issue 15 point 5: keyset cursors. A page continues strictly after the last row seen, so rows
 * inserted between two requests give no repeat and no gap; every connection pages backwards
 * with last/before; a flag search cursor carries its order.
 */
let t: TestApp;

type Page = {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
  edges: { cursor: string; node: Record<string, unknown> }[];
};

const PAGE = "totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor";

/** Reads `field` page by page (forwards with first/after or backwards with last/before). */
async function walk(field: string, selection: string, size: number, backward = false, extraArgs = "") {
  const seen: unknown[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const args = backward ? `last: ${size}, before: $c` : `first: ${size}, after: $c`;
    const data: Record<string, Page> = await gqlOk(
      t,
      `query($c: String) { page: ${field}(${args}${extraArgs}) { ${PAGE} node { ${selection} } } } }`,
      { c: cursor },
    );
    const page = data.page as Page;
    const nodes = page.edges.map((e) => e.node[selection.split(" ")[0] as string]);
    if (backward) seen.unshift(...nodes);
    else seen.push(...nodes);
    const more = backward ? page.pageInfo.hasPreviousPage : page.pageInfo.hasNextPage;
    if (!more) return seen;
    cursor = backward ? page.pageInfo.startCursor : page.pageInfo.endCursor;
  }
  throw new Error("did not end");
}

beforeAll(async () => {
  // SDK metrics are stored before the answer, so a flag is seen at once.
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  for (let i = 0; i < 7; i++) await createFlag(t, `flag-${i}`);
});

afterAll(async () => {
  await t?.close();
});

describe("keyset cursors", () => {
  it("continues the audit log after the last event seen although newer events were recorded (no repeat)", async () => {
    const first: { events: Page } = await gqlOk(t, `{ events(first: 3) { ${PAGE} node { databaseId } } } }`);
    const seen = first.events.edges.map((e) => e.node.databaseId as number);
    await createFlag(t, "inserted-between-pages");
    const next: { events: Page } = await gqlOk(
      t,
      `query($c: String) { events(first: 3, after: $c) { ${PAGE} node { databaseId } } } }`,
      { c: first.events.pageInfo.endCursor },
    );
    const following = next.events.edges.map((e) => e.node.databaseId as number);
    expect(following).toEqual([(seen[2] as number) - 1, (seen[2] as number) - 2, (seen[2] as number) - 3]);
    expect(next.events.pageInfo.hasPreviousPage).toBe(true);
  });

  it("continues the flag list after the last flag seen although flags were created (no repeat, no gap)", async () => {
    const first: { features: Page } = await gqlOk(t, `{ features(first: 2) { ${PAGE} node { name } } } }`);
    const names = first.features.edges.map((e) => e.node.name);
    await createFlag(t, "newest-flag");
    const rest = await gqlOk(
      t,
      `query($c: String) { features(first: 100, after: $c) { edges { node { name } } } }`,
      { c: first.features.pageInfo.endCursor },
    );
    const all = await gqlOk(t, `{ features(first: 100) { edges { node { name } } } }`);
    const everyName = all.features.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(everyName[0]).toBe("newest-flag");
    expect([...names, ...rest.features.edges.map((e: { node: { name: string } }) => e.node.name)]).toEqual(
      everyName.slice(1),
    );
  });

  it("pages backwards with last/before, in the same order as forwards", async () => {
    const forwards = await walk("features", "name", 3);
    expect(await walk("features", "name", 3, true)).toEqual(forwards);
    const events = await walk("events", "databaseId", 4);
    expect(await walk("events", "databaseId", 4, true)).toEqual(events);
    const last: { features: Page } = await gqlOk(t, `{ features(last: 2) { ${PAGE} node { name } } } }`);
    expect(last.features.edges.map((e) => e.node.name)).toEqual(forwards.slice(-2));
    expect(last.features.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
  });

  it("accepts last/before on every connection", async () => {
    for (const field of [
      "features",
      "events",
      "eventSearch",
      "featureSearch",
      "changeRequests",
      "clientApplications",
    ]) {
      const res = await t.gql(`{ ${field}(last: 1) { totalCount edges { cursor } } }`);
      expect(res.errors, field).toBeUndefined();
    }
  });

  it("refuses a cursor that is not one, or one of another order, with VALIDATION", async () => {
    const byName: { featureSearch: Page } = await gqlOk(
      t,
      `{ featureSearch(first: 1, sort: { field: NAME }) { ${PAGE} node { name } } } }`,
    );
    const cursor = byName.featureSearch.pageInfo.endCursor;
    const other = await t.gql(`query($c: String) { featureSearch(first: 1, after: $c) { totalCount } }`, {
      c: cursor,
    });
    expect(other.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    const junk = await t.gql(`{ events(first: 1, after: "bm9wZQ") { totalCount } }`);
    expect(junk.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    const both = await t.gql(`{ events(first: 1, last: 1) { totalCount } }`);
    expect(both.errors?.[0]?.extensions?.code).toBe("VALIDATION");
  });
});

describe("flag search cursors carry their order", () => {
  beforeAll(async () => {
    // ties and NULLs: two types, some flags seen, some on in production, favourites (more than a page)
    for (const name of ["flag-2", "flag-5"]) {
      await gqlOk(
        t,
        `mutation($n: String!) { updateFeature(project: "default", name: $n, input: { type: "experiment" }) { name } }`,
        {
          n: name,
        },
      );
    }
    await enableFlag(t, "flag-3", "production");
    t.setNow(new Date("2026-01-01T00:00:00.123Z"));
    const seen = { yes: 1, no: 0 };
    const sdk = await apiToken(t, "client", "development", ["*"]);
    expect(await reportMetrics(t, sdk, { "flag-1": seen, "flag-4": seen })).toBe(202);
    t.setNow(null);
    for (const name of ["flag-6", "flag-1", "flag-3", "flag-4"]) await favoriteFlag(t, name);
  });

  const orders = [
    "sort: { field: NAME, direction: DESC }",
    "sort: { field: TYPE }",
    "sort: { field: LAST_SEEN_AT, direction: DESC }",
    "sort: { field: LAST_SEEN_AT }",
    'sort: { field: ENVIRONMENT, environment: "production", direction: DESC }',
    "sort: { field: CREATED_AT, direction: DESC }, favoritesFirst: true",
    "sort: { field: NAME }, favoritesFirst: true",
    'sort: { field: ENVIRONMENT, environment: "production" }, favoritesFirst: true',
  ];

  it.each(orders)("walks %s page by page, both ways, as one page", async (order) => {
    const whole = await gqlOk(t, `{ featureSearch(first: 100, ${order}) { edges { node { name } } } }`);
    const expected = whole.featureSearch.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(await walk("featureSearch", "name", 2, false, `, ${order}`)).toEqual(expected);
    expect(await walk("featureSearch", "name", 3, true, `, ${order}`)).toEqual(expected);
  });

  it("keeps REST's offset/limit paging", async () => {
    const page = await t.rest("GET", "/api/admin/search/features?sortBy=name&sortOrder=asc&offset=2&limit=2");
    expect(page.status).toBe(200);
    const all = await t.rest("GET", "/api/admin/search/features?sortBy=name&sortOrder=asc&limit=100");
    expect(page.body.features.map((f: { name: string }) => f.name)).toEqual(
      all.body.features.slice(2, 4).map((f: { name: string }) => f.name),
    );
  });
});
