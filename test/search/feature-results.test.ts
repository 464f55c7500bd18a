import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { seedFlag, seedUser, tagFlag } from "./seed.ts";

let t: TestApp;
let alice: { id: number; token: string };
let openChangeRequestId: number;

async function search(query: string, token?: string) {
  const res = await t.rest("GET", `/api/admin/search/features?${query}`, undefined, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { features: Record<string, any>[]; total: number };
}
const names = async (query: string, token?: string) =>
  (await search(query, token)).features.map((f) => f.name as string);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.prisma;
  await db.project.create({ data: { id: "sort", name: "sort" } });
  await db.project.create({ data: { id: "page", name: "page" } });
  alice = await seedUser(db, "alice");
  // reference-behaviours §1.8 example: created a, c, b; c enabled in development; b favourited
  await seedFlag(db, { name: "a", project: "sort", createdAt: new Date("2026-01-01T00:00:00Z") });
  await seedFlag(db, {
    name: "c",
    project: "sort",
    type: "experiment",
    stale: true,
    createdAt: new Date("2026-01-02T00:00:00Z"),
    enabledIn: ["development"],
    lastSeenAt: new Date("2026-03-01T00:00:00Z"),
  });
  await seedFlag(db, { name: "b", project: "sort", createdAt: new Date("2026-01-03T00:00:00Z") });
  await db.favoriteFeature.create({ data: { userId: alice.id, featureName: "b" } });
  // 7 flags with several tags each: joins must not duplicate or skip flags across pages
  for (let i = 0; i < 7; i++) {
    await seedFlag(db, {
      name: `p${i}`,
      project: "page",
      createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, i)),
      tags: ["simple:x", "simple:y", "team:z"],
      segments: ["s1", "s2"],
    });
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
        `project=IS:page&tag=INCLUDE_ANY_OF:simple:x,simple:y&limit=3&offset=${offset}`,
      );
      expect(page.total).toBe(7);
      seen.push(...page.features.map((f) => f.name));
    }
    expect(seen).toEqual(["p0", "p1", "p2", "p3", "p4", "p5", "p6"]);
  });

  // with a column filter, and with a tag filter (matches are computed once, then paged)
  it.each([["project=IS:page"], ["project=IS:page&tag=INCLUDE:simple:x"]])(
    "favourites first ranks across pages (%s)",
    async (filter) => {
      const db = t.database.prisma;
      await db.favoriteFeature.createMany({
        data: ["p2", "p5"].map((featureName) => ({ userId: alice.id, featureName })),
      });
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
      await db.favoriteFeature.deleteMany({ where: { userId: alice.id, featureName: { in: ["p2", "p5"] } } });
    },
  );

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
    expect((await search("limit=100")).features.length).toBe(10);
  });
});

describe("items (spec 2.9)", () => {
  beforeAll(async () => {
    const db = t.database.prisma;
    await seedFlag(db, {
      name: "rich",
      project: "sort",
      description: "all the fields",
      createdAt: new Date("2026-01-04T00:00:00Z"),
      createdByUserId: alice.id,
      enabledIn: ["production"],
      segments: ["beta-users"],
      stages: ["initial", "pre-live"],
    });
    await tagFlag(db, "rich", "simple:shown");
    await seedFlag(db, { name: "rich-child", project: "sort", createdAt: new Date("2026-01-05T00:00:00Z") });
    await db.featureDependency.create({ data: { parentName: "rich", childName: "rich-child" } });
    await db.favoriteFeature.create({ data: { userId: alice.id, featureName: "rich" } });
    const hour = (h: number) => new Date(Date.UTC(2026, 5, 1, h));
    await db.featureMetricsHourly.createMany({
      data: [
        { featureName: "rich", environmentName: "production", hour: hour(9), yes: 7, no: 3 },
        { featureName: "rich", environmentName: "production", hour: hour(10), yes: 100, no: 100 },
        { featureName: "rich", environmentName: "development", hour: hour(8), yes: 1, no: 1 },
      ],
    });
    const cr = await db.changeRequest.create({
      data: {
        projectId: "sort",
        environmentName: "production",
        state: "In review",
        createdByUserId: alice.id,
      },
    });
    const done = await db.changeRequest.create({
      data: { projectId: "sort", environmentName: "production", state: "Applied", createdByUserId: alice.id },
    });
    for (const id of [cr.id, done.id]) {
      await db.changeRequestChange.create({
        data: {
          changeRequestId: id,
          featureName: "rich",
          action: "updateEnabled",
          payload: {},
          createdByUserId: alice.id,
        },
      });
    }
    t.setNow(new Date(Date.UTC(2026, 5, 1, 10, 30)));
    openChangeRequestId = cr.id;
  });

  it("has every field, yes/no from the last complete hour, and the caller's favourite", async () => {
    const [item] = (await search("query=rich&sortBy=name", alice.token)).features;
    expect(item).toMatchObject({
      name: "rich",
      type: "release",
      description: "all the fields",
      dependencyType: "parent",
      project: "sort",
      stale: false,
      favorite: true,
      impressionData: false,
      createdAt: "2026-01-04T00:00:00.000Z",
      archivedAt: null,
      lastSeenAt: null,
      createdBy: { id: alice.id, name: "alice" },
      segments: ["beta-users"],
      tags: [{ type: "simple", value: "shown" }],
      lifecycle: { stage: "pre-live", status: null },
    });
    expect(item?.environments).toEqual([
      expect.objectContaining({ name: "development", enabled: false, hasStrategies: true, yes: 0, no: 0 }),
      expect.objectContaining({
        name: "production",
        type: "production",
        enabled: true,
        hasStrategies: false,
        hasEnabledStrategies: false,
        variantCount: 0,
        yes: 7,
        no: 3,
        changeRequestIds: [openChangeRequestId],
      }),
    ]);
    const child = (await search("query=rich-child")).features[0];
    expect(child).toMatchObject({ dependencyType: "child", favorite: false });
  });
});
