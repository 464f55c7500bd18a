import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let bob: { id: number };

type EventRow = {
  type: string;
  featureName?: string;
  project?: string;
  environment?: string;
  createdBy?: string;
  createdByUserId?: number;
  createdAt?: Date;
  data?: object;
  preData?: object;
  tags?: { type: string; value: string }[];
};

/** Stores one event in the log (by default the admin token's, in project default). */
async function event(row: EventRow) {
  // Direct write: these tests need a log of exactly the events below, with chosen data and
  // times; every API call records events of its own.
  await t.database.prisma.event.create({
    data: { createdBy: "admin", createdByUserId: -42, project: "default", tags: [], ...row },
  });
}

async function search(query: string) {
  const res = await t.rest("GET", `/api/admin/search/events?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { events: { id: number; type: string; featureName: string | null }[]; total: number };
}
const types = async (query: string) => (await search(query)).events.map((e) => e.type);

/**
 * The log beforeAll stores is in projects default and other; the tests of a flag's events add
 * events of flags of their own in no project, which this filter leaves out.
 */
const LOG = "project=IS_ANY_OF:default,other";

/** Stores `n` feature-updated events of `featureName` in no project, data `{n: 0..n-1}`. */
async function busyFlagEvents(featureName: string, n: number) {
  // Direct write: events of one flag with numbered data, to page through.
  await t.database.prisma.event.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      type: "feature-updated",
      createdBy: "admin",
      featureName,
      data: { n: i },
    })),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  // Direct write: a user made through the API would add user-created to the log.
  bob = await t.database.prisma.user.create({
    data: { username: "bob", email: "bob@example.com", name: "bob" },
  });
  const at = (iso: string) => new Date(iso);
  await event({
    type: "feature-created",
    featureName: "alpha",
    createdAt: at("2026-03-01T08:00:00Z"),
    data: { name: "alpha", description: "Green_button 50%" },
  });
  await event({
    type: "feature-updated",
    featureName: "alpha",
    createdAt: at("2026-03-02T23:59:59Z"),
    preData: { description: "old TEXT" },
    data: { description: "new" },
  });
  await event({
    type: "feature-tagged",
    featureName: "beta",
    project: "other",
    createdAt: at("2026-03-03T00:00:00Z"),
    tags: [{ type: "team", value: "payments" }],
    data: { type: "team", value: "payments" },
  });
  await event({
    type: "feature-archived",
    featureName: "beta",
    project: "other",
    environment: "production",
    createdBy: "bob",
    createdByUserId: bob.id,
    createdAt: at("2026-03-04T10:00:00Z"),
  });
  await event({
    type: "project-created",
    project: "other",
    createdAt: at("2026-03-05T10:00:00Z"),
    data: { id: "other" },
  });
});
afterAll(() => t.close());

describe("GET /api/admin/search/events (spec 4.4)", () => {
  it("lists newest first with the total", async () => {
    const res = await search(LOG);
    expect(res.total).toBe(5);
    expect(res.events.map((e) => e.type)).toEqual([
      "project-created",
      "feature-archived",
      "feature-tagged",
      "feature-updated",
      "feature-created",
    ]);
  });

  it("query matches text inside data, preData and tags, case-insensitively; % and _ literal", async () => {
    expect(await types("query=green_BUTTON")).toEqual(["feature-created"]);
    expect(await types("query=50%25")).toEqual(["feature-created"]);
    expect(await types("query=green%button")).toEqual([]);
    expect(await types("query=old text")).toEqual(["feature-updated"]);
    expect(await types("query=payments")).toEqual(["feature-tagged"]);
    // the type column itself is not searched
    expect(await types("query=archived")).toEqual([]);
  });

  it("feature, project, type and createdBy with IS and IS_ANY_OF", async () => {
    expect(await types("feature=IS:alpha")).toEqual(["feature-updated", "feature-created"]);
    expect(await types("feature=IS_ANY_OF:alpha,beta")).toHaveLength(4);
    expect(await types("project=IS:other&type=IS_ANY_OF:feature-tagged,project-created")).toEqual([
      "project-created",
      "feature-tagged",
    ]);
    expect(await types("type=IS:feature-created")).toEqual(["feature-created"]);
    expect(await types(`createdBy=IS:${bob.id}`)).toEqual(["feature-archived"]);
    expect(await types(`createdBy=IS_ANY_OF:${bob.id},-42`)).toHaveLength(5);
    expect(await types("environment=IS:production")).toEqual(["feature-archived"]);
  });

  it("from and to are whole days, both inclusive", async () => {
    expect(await types("from=IS:2026-03-02&to=IS:2026-03-03")).toEqual(["feature-tagged", "feature-updated"]);
    expect(await types("to=IS:2026-03-01")).toEqual(["feature-created"]);
    expect(await types(`from=IS:2026-03-05&${LOG}`)).toEqual(["project-created"]);
  });

  it("pages with offset/limit; limit above 1000 and bad patterns are 400s naming the parameter", async () => {
    const page = await search(`limit=2&offset=1&${LOG}`);
    expect(page.total).toBe(5);
    expect(page.events.map((e) => e.type)).toEqual(["feature-archived", "feature-tagged"]);
    const cases: [string, string][] = [
      ["limit=1001", "limit"],
      ["feature=IS_NOT:alpha", "feature"],
      ["project=alpha", "project"],
      ["from=2026-03-01", "from"],
      ["to=IS:2026-13-01", "to"],
      ["createdBy=IS:bob", "createdBy"],
    ];
    for (const [q, param] of cases) {
      const res = await t.rest("GET", `/api/admin/search/events?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.name).toBe("ValidationError");
      expect(res.body.message).toContain(param);
    }
  });

  it("GraphQL eventSearch takes typed filters", async () => {
    const res = await t.gql(
      `query($f: EventSearchFilter) { eventSearch(filter: $f, first: 1) { totalCount edges { node { type featureName } } } }`,
      { f: { feature: { operator: "IS_ANY_OF", values: ["alpha"] }, from: "2026-03-01" } },
    );
    expect(res.data).toEqual({
      eventSearch: { totalCount: 2, edges: [{ node: { type: "feature-updated", featureName: "alpha" } }] },
    });
  });

  it("`until` shows the log as it was at an instant (inclusive, to the millisecond)", async () => {
    const query = `query($f: EventSearchFilter) { eventSearch(filter: $f) { totalCount edges { node { type } } } }`;
    const at = async (until: string) =>
      (
        await t.gql<{ eventSearch: { totalCount: number; edges: { node: { type: string } }[] } }>(query, {
          f: { feature: { operator: "IS_ANY_OF", values: ["alpha"] }, until },
        })
      ).data?.eventSearch;
    expect(await at("2026-03-02T23:59:59Z")).toEqual({
      totalCount: 2,
      edges: [{ node: { type: "feature-updated" } }, { node: { type: "feature-created" } }],
    });
    expect(await at("2026-03-02T23:59:58.999Z")).toEqual({
      totalCount: 1,
      edges: [{ node: { type: "feature-created" } }],
    });
    expect((await t.gql(query, { f: { until: "yesterday" } })).errors?.[0]?.message).toContain("DateTime");
  });
});

describe("GET /api/admin/events/:featureName (spec 4.8)", () => {
  it("answers the newest 50 with the total of all (as Unleash); limit and offset page further", async () => {
    await busyFlagEvents("busy", 60);
    const res = await t.rest("GET", "/api/admin/events/busy");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.toggleName).toBe("busy");
    expect(res.body.totalEvents).toBe(60);
    expect(res.body.events).toHaveLength(50);
    expect(res.body.events[0].data).toEqual({ n: 59 });
    expect(res.body.events[49].data).toEqual({ n: 10 });
    const all = await t.rest("GET", "/api/admin/events/busy?limit=100");
    expect(all.body.events).toHaveLength(60);
    const rest = await t.rest("GET", "/api/admin/events/busy?offset=50");
    expect(rest.body.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([
      9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    ]);
    expect(rest.body.totalEvents).toBe(60);
    expect((await t.rest("GET", "/api/admin/events/busy?limit=5000")).status).toBe(400);
    const gql = await t.gql<{ featureEvents: unknown[] }>(`{ featureEvents(feature: "busy") { id } }`);
    expect(gql.data?.featureEvents).toHaveLength(50);
  });

  it("answers an empty list for an unknown flag", async () => {
    const res = await t.rest("GET", "/api/admin/events/no-such-flag");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, toggleName: "no-such-flag", events: [], totalEvents: 0 });
  });
});

describe("POST /api/admin/events/search (deprecated, spec 4.13)", () => {
  const post = (body: unknown) => t.rest("POST", "/api/admin/events/search", body);

  it("is still served, with a Deprecation header", async () => {
    const res = await post({ feature: "alpha" });
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.body.version).toBe(1);
    expect(res.body.totalEvents).toBe(2);
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual([
      "feature-updated",
      "feature-created",
    ]);
  });

  it("type, project and feature are exact and case-sensitive", async () => {
    expect((await post({ type: "feature-created" })).body.totalEvents).toBe(1);
    expect((await post({ type: "Feature-Created" })).body.totalEvents).toBe(0);
    expect((await post({ project: "OTHER" })).body.totalEvents).toBe(0);
    expect((await post({ project: "other", feature: "beta" })).body.totalEvents).toBe(2);
  });

  it("query matches the type, the creating user's name or email, and data", async () => {
    const typesOf = async (query: string) =>
      (await post({ query })).body.events.map((e: { type: string }) => e.type);
    expect(await typesOf("ARCHIVED")).toEqual(["feature-archived"]);
    expect(await typesOf("bob@example")).toEqual(["feature-archived"]);
    expect(await typesOf("green_button")).toEqual(["feature-created"]);
  });

  it("limit is 1 to 100 (default 100); offset is the id to list from", async () => {
    await busyFlagEvents("busy-searched", 60);
    const all = await post({ feature: "busy-searched" });
    expect(all.body.events).toHaveLength(60);
    const ids = all.body.events.map((e: { id: number }) => e.id);
    const from = await post({ feature: "busy-searched", offset: ids[10], limit: 5 });
    expect(from.body.events.map((e: { id: number }) => e.id)).toEqual(ids.slice(10, 15));
    for (const limit of [0, 101, "ten"]) {
      const res = await post({ limit });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("limit");
    }
  });
});
