import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import {
  addStrategy,
  apiToken,
  createFlag,
  createProject,
  createSegment,
  createTagType,
  enableFlag,
  reportMetrics,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";

let t: TestApp;
let alice: TestUser;
let openChangeRequestId: number;

async function search(query: string, token?: string) {
  const res = await t.rest("GET", `/api/admin/search/features?${query}`, undefined, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { features: Record<string, any>[]; total: number };
}
const names = async (query: string, token?: string) =>
  (await search(query, token)).features.map((f) => f.name as string);

/** Alice marks (POST) or unmarks (DELETE) a flag as a favourite. */
async function favorite(method: "POST" | "DELETE", project: string, flag: string) {
  const res = await t.rest(
    method,
    `/api/admin/projects/${project}/features/${flag}/favorites`,
    undefined,
    alice.token,
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  await createProject(t, "sort");
  await createProject(t, "page");
  await createTagType(t, "team");
  alice = await userWithPat(t, "alice", "Editor");
  // reference-behaviours §1.8 example: created a, c, b; c enabled in development; b favourited
  await withClock(t, new Date("2026-01-01T00:00:00Z"), () => createFlag(t, "a", { project: "sort" }));
  await withClock(t, new Date("2026-01-02T00:00:00Z"), () =>
    createFlag(t, "c", { project: "sort", type: "experiment", enabledIn: ["development"] }),
  );
  await withClock(t, new Date("2026-01-03T00:00:00Z"), () => createFlag(t, "b", { project: "sort" }));
  expect(
    (await t.rest("POST", "/api/admin/projects/sort/stale", { features: ["c"], stale: true })).status,
  ).toBe(202);
  const sdk = await apiToken(t, "client", "development", ["sort"]);
  await withClock(t, new Date("2026-03-01T00:00:00Z"), async () => {
    expect(await reportMetrics(t, sdk, { c: { yes: 1, no: 0 } })).toBe(202);
  });
  await favorite("POST", "sort", "b");
  // 7 flags with several tags and segments each: joins must not duplicate or skip flags across pages
  const segments = [await createSegment(t, "s1"), await createSegment(t, "s2")];
  for (let i = 0; i < 7; i++) {
    await withClock(t, new Date(Date.UTC(2026, 1, 1, 0, 0, i)), () =>
      createFlag(t, `p${i}`, {
        project: "page",
        tags: [
          { type: "simple", value: "xx" },
          { type: "simple", value: "yy" },
          { type: "team", value: "zz" },
        ],
        strategies: [{ name: "flexibleRollout", segments }],
      }),
    );
  }
});
afterAll(() => t.close());

describe("sorting (reference-behaviours §1.8 example)", () => {
  const cases: [string, string[]][] = [
    ["sortBy=name", ["a", "b", "c"]],
    ["sortBy=name&sortOrder=desc", ["c", "b", "a"]],
    ["", ["a", "c", "b"]],
    ["sortBy=createdAt&sortOrder=desc", ["b", "c", "a"]],
    ["sortBy=environment:development", ["a", "b", "c"]],
    ["sortBy=environment:development&sortOrder=desc", ["c", "a", "b"]],
    ["sortBy=lastSeenAt", ["c", "a", "b"]],
    ["sortBy=type", ["c", "a", "b"]],
    ["sortBy=type&sortOrder=desc", ["a", "b", "c"]],
    ["sortBy=stale", ["a", "b", "c"]],
    ["sortBy=stale&sortOrder=desc", ["c", "a", "b"]],
    ["sortBy=project", ["a", "c", "b"]],
  ];
  it.each(cases)("%s", async (q, expected) => {
    expect(await names(`project=IS:sort&${q}`)).toEqual(expected);
  });

  it("favoritesFirst puts the caller's favourites first", async () => {
    expect(
      await names(
        "project=IS:sort&sortBy=environment:development&sortOrder=desc&favoritesFirst=true",
        alice.token,
      ),
    ).toEqual(["b", "c", "a"]);
    expect(await names("project=IS:sort&favoritesFirst=false", alice.token)).toEqual(["a", "c", "b"]);
    // an admin API token has favourites of its own (the shared admin-token user), not alice's
    expect(await names("project=IS:sort&sortBy=createdAt&favoritesFirst=true")).toEqual(["a", "c", "b"]);
  });

  it("an admin token's favourites rank first and show as favourite, like a user's", async () => {
    expect((await t.rest("POST", "/api/admin/projects/sort/features/c/favorites")).status).toBe(200);
    const page = await search("project=IS:sort&sortBy=name&favoritesFirst=true");
    expect(page.features.map((f) => [f.name, f.favorite])).toEqual([
      ["c", true],
      ["a", false],
      ["b", false],
    ]);
    expect((await t.rest("DELETE", "/api/admin/projects/sort/features/c/favorites")).status).toBe(200);
  });

  it("refuses unknown sort orders (an unknown sort field falls back to createdAt)", async () => {
    for (const bad of ["sortOrder=up", "favoritesFirst=yes"]) {
      const res = await t.rest("GET", `/api/admin/search/features?${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`"${bad.split("=")[0]}"`);
    }
  });
});

describe("GraphQL items", () => {
  it("carry the spec 2.9 fields, and the whole flag under `feature` when asked", async () => {
    const res = await t.gql(`{ featureSearch(filter: { project: { operator: IS, values: ["sort"] } },
        sort: { field: NAME }) {
      edges { node { name archived tags { type value } environments { name enabled yes }
        feature { name environments { name strategies { name } } } } } } }`);
    expect(res.errors).toBeUndefined();
    const nodes = (res.data as any).featureSearch.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => n.name)).toEqual(["a", "b", "c"]);
    const c = nodes[2];
    expect(c.archived).toBe(false);
    expect(c.environments.find((e: any) => e.name === "development")).toMatchObject({
      enabled: true,
      yes: 0,
    });
    expect(c.feature.name).toBe("c");
    expect(c.feature.environments.map((e: any) => e.name)).toEqual(c.environments.map((e: any) => e.name));
  });
});

describe("paging and total", () => {
  it("pages never repeat or skip a flag, whatever the joins", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const page = await search(
        `project=IS:page&tag=INCLUDE_ANY_OF:simple:xx,simple:yy&limit=3&offset=${offset}`,
      );
      expect(page.total).toBe(7);
      seen.push(...page.features.map((f) => f.name));
    }
    expect(seen).toEqual(["p0", "p1", "p2", "p3", "p4", "p5", "p6"]);
  });

  // with a column filter, and with a tag filter (matches are computed once, then paged)
  it.each([["project=IS:page"], ["project=IS:page&tag=INCLUDE:simple:xx"]])(
    "favourites first ranks across pages (%s)",
    async (filter) => {
      for (const flag of ["p2", "p5"]) await favorite("POST", "page", flag);
      const seen: string[] = [];
      for (const offset of [0, 2, 4, 6]) {
        const page = await search(
          `${filter}&sortBy=createdAt&sortOrder=desc&favoritesFirst=true&limit=2&offset=${offset}`,
          alice.token,
        );
        expect(page.total).toBe(7);
        seen.push(...page.features.map((f) => f.name));
      }
      expect(seen).toEqual(["p5", "p2", "p6", "p4", "p3", "p1", "p0"]);
      for (const flag of ["p2", "p5"]) await favorite("DELETE", "page", flag);
    },
  );

  // More favourites than a page: the favourites' own order is cut at the page too, and the
  // boundary between favourites and the others falls inside a page.
  it.each([
    ["project=IS:page", "sortBy=createdAt&sortOrder=desc"],
    ["project=IS:page", "sortBy=name&sortOrder=desc"],
    ["project=IS:page", "sortBy=environment:development"],
    ["project=IS:page&tag=INCLUDE:simple:xx", "sortBy=createdAt"],
  ])("favourites first with many favourites, page by page (%s, %s)", async (filter, order) => {
    const favorites = ["p0", "p1", "p3", "p5", "p6"];
    for (const flag of favorites) await favorite("POST", "page", flag);
    const plain = await names(`${filter}&${order}&limit=100`, alice.token);
    const expected = [
      ...plain.filter((n) => favorites.includes(n)),
      ...plain.filter((n) => !favorites.includes(n)),
    ];
    const seen: string[] = [];
    for (const offset of [0, 2, 4, 6]) {
      const query = `${filter}&${order}&favoritesFirst=true&limit=2&offset=${offset}`;
      seen.push(...(await names(query, alice.token)));
    }
    expect(seen).toEqual(expected);
    expect(await names(`${filter}&${order}&favoritesFirst=true&limit=3&offset=3`, alice.token)).toEqual(
      expected.slice(3, 6),
    );
    for (const flag of favorites) await favorite("DELETE", "page", flag);
  });

  it("counts every match on a page past the end", async () => {
    expect(await search("project=IS:page&offset=100&limit=5")).toEqual({ features: [], total: 7 });
    expect(await search("project=IS:nothing")).toEqual({ features: [], total: 0 });
  });

  it("defaults to 50 and refuses a limit above 100 or a malformed one", async () => {
    const bad = await t.rest("GET", "/api/admin/search/features?limit=101");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"limit"');
    for (const q of ["limit=abc", "limit=0", "offset=-1"]) {
      expect((await t.rest("GET", `/api/admin/search/features?${q}`)).status).toBe(400);
    }
    expect((await search("project=IS:page&limit=100")).features.length).toBe(7);
  });
});

/**
 * Two change requests by alice on rich in production, one applied and one still in review;
 * returns the open one's id.
 */
async function changeRequestsOnRich(): Promise<number> {
  const project = "/api/admin/projects/items";
  const config = await t.rest("PUT", `${project}/environments/production/change-requests/config`, {
    changeRequestsEnabled: true,
    requiredApprovals: 1,
  });
  expect(config.status).toBe(204);
  const propose = async () => {
    const change = { action: "updateEnabled", feature: "rich", payload: { enabled: true } };
    const res = await t.rest(
      "POST",
      `${project}/environments/production/change-requests`,
      change,
      alice.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };
  const moveTo = async (id: number, state: string, token?: string) => {
    const res = await t.rest("PUT", `${project}/change-requests/${id}/state`, { state }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const applied = await propose();
  await moveTo(applied, "In review", alice.token);
  await moveTo(applied, "Approved");
  await moveTo(applied, "Applied");
  const open = await propose();
  await moveTo(open, "In review", alice.token);
  return open;
}

describe("items (spec 2.9)", () => {
  const hour = (h: number) => new Date(Date.UTC(2026, 5, 1, h, 30));
  // A project of their own: the sorting and paging tests count project "sort" and every flag.
  beforeAll(async () => {
    await createProject(t, "items");
    const richInput = {
      name: "rich",
      description: "all the fields",
      tags: [{ type: "simple", value: "shown" }],
    };
    await withClock(t, new Date("2026-01-04T00:00:00Z"), async () => {
      const res = await t.rest("POST", "/api/admin/projects/items/features", richInput, alice.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
    const betaUsers = await createSegment(t, "beta-users");
    await addStrategy(
      t,
      "rich",
      { name: "flexibleRollout", segments: [betaUsers], disabled: true },
      "development",
      "items",
    );
    await withClock(t, new Date("2026-01-05T00:00:00Z"), () =>
      createFlag(t, "rich-child", { project: "items" }),
    );
    const link = await t.rest("POST", "/api/admin/projects/items/features/rich-child/dependencies", {
      feature: "rich",
    });
    expect(link.status).toBe(200);
    await favorite("POST", "items", "rich");
    // Counted while off in production (so pre-live, not live), in three hours; then turned on there.
    const sdk = {
      development: await apiToken(t, "client", "development", ["items"]),
      production: await apiToken(t, "client", "production", ["items"]),
    };
    const reports: [number, keyof typeof sdk, number, number][] = [
      [8, "development", 1, 1],
      [9, "production", 7, 3],
      [10, "production", 100, 100],
    ];
    for (const [h, environment, yes, no] of reports) {
      await withClock(t, hour(h), async () => {
        expect(await reportMetrics(t, sdk[environment], { rich: { yes, no } })).toBe(202);
      });
    }
    await enableFlag(t, "rich", "production", "items");
    openChangeRequestId = await changeRequestsOnRich();
    t.setNow(hour(10));
  });

  it("has every field, yes/no of the buckets started within the last hour (the current one), and the caller's favourite", async () => {
    const [item] = (await search("query=rich&sortBy=name", alice.token)).features;
    expect(item).toMatchObject({
      name: "rich",
      type: "release",
      description: "all the fields",
      dependencyType: "parent",
      project: "items",
      stale: false,
      favorite: true,
      impressionData: false,
      createdAt: "2026-01-04T00:00:00.000Z",
      archivedAt: null,
      lastSeenAt: "2026-06-01T10:30:00.000Z",
      createdBy: { id: alice.id, name: "alice" },
      segments: ["beta-users"],
      tags: [{ type: "simple", value: "shown" }],
      lifecycle: { stage: "pre-live", status: null },
    });
    expect(item?.environments).toEqual([
      expect.objectContaining({
        name: "development",
        enabled: false,
        hasStrategies: true,
        hasEnabledStrategies: false,
        yes: 0,
        no: 0,
      }),
      expect.objectContaining({
        name: "production",
        type: "production",
        enabled: true,
        hasStrategies: true,
        hasEnabledStrategies: true,
        variantCount: 0,
        yes: 100,
        no: 100,
        changeRequestIds: [openChangeRequestId],
      }),
    ]);
    const child = (await search("query=rich-child")).features[0];
    expect(child).toMatchObject({ dependencyType: "child", favorite: false });
    expect(child?.environments).toContainEqual(
      expect.objectContaining({ name: "production", hasStrategies: false, hasEnabledStrategies: false }),
    );
  });
});
