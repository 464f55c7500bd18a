import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { day, seedFlag } from "./seed.ts";

let t: TestApp;

/** Names of the flags a search returns, in order (asserting a 200). */
async function names(query: string): Promise<string[]> {
  const res = await t.rest("GET", `/api/admin/search/features?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.features.map((f: { name: string }) => f.name);
}

async function project(id: string) {
  await t.database.prisma.project.create({ data: { id, name: id } });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.prisma;
  for (const p of ["text", "tags", "segs", "state", "life", "dates", "ops"]) await project(p);
  const admin = await db.user.findFirstOrThrow({ where: { id: { gt: 0 } } });
  // query
  await seedFlag(db, { name: "checkout-new", project: "text", description: "The NEW payment page" });
  await seedFlag(db, { name: "search_v2", project: "text", description: "ranking" });
  await seedFlag(db, { name: "searchxv2", project: "text" });
  await seedFlag(db, { name: "promo-100", project: "text", description: "100% off" });
  await seedFlag(db, { name: "tagged-only", project: "text", tags: ["team:payments"] });
  // tag example of reference-behaviours §1.3
  await seedFlag(db, { name: "a", project: "tags", tags: ["simple:my_tag"] });
  await seedFlag(db, { name: "b", project: "tags" });
  await seedFlag(db, { name: "c", project: "tags", tags: ["simple:tag_c"] });
  await seedFlag(db, { name: "d", project: "tags", tags: ["simple:tag_c", "simple:my_tag"] });
  await seedFlag(db, { name: "e-colon", project: "tags", tags: ["simple:my_tag:colon"] });
  // the same with segments
  await seedFlag(db, { name: "sa", project: "segs", segments: ["my_segment"] });
  await seedFlag(db, { name: "sb", project: "segs" });
  await seedFlag(db, { name: "sc", project: "segs", segments: ["segment_c"] });
  await seedFlag(db, { name: "sd", project: "segs", segments: ["segment_c", "my_segment"] });
  // state
  await seedFlag(db, { name: "st-active", project: "state" });
  await seedFlag(db, { name: "st-stale", project: "state", stale: true });
  await seedFlag(db, { name: "st-potential", project: "state", potentiallyStale: true });
  // lifecycle
  await seedFlag(db, { name: "lc-initial", project: "life" });
  await seedFlag(db, { name: "lc-live", project: "life", stages: ["initial", "pre-live", "live"] });
  await seedFlag(db, { name: "lc-archived", project: "life", archivedAt: day("2026-02-01") });
  // dates, types, creators
  await seedFlag(db, { name: "dt-jan", project: "dates", createdAt: new Date("2026-01-31T23:59:59Z") });
  await seedFlag(db, { name: "dt-feb", project: "dates", createdAt: new Date("2026-02-01T00:00:00Z") });
  await seedFlag(db, { name: "op-release", project: "ops", createdByUserId: admin.id, type: "release" });
  await seedFlag(db, { name: "op-experiment", project: "ops", type: "experiment", createdByUserId: -42 });
  await seedFlag(db, { name: "op-nobody", project: "ops", type: "kill-switch", createdByUserId: null });
  await seedFlag(db, { name: "op-on-dev", project: "ops", type: "operational", enabledIn: ["development"] });
});
afterAll(() => t.close());

const sortedNames = async (q: string) => (await names(q)).sort();

describe("query", () => {
  it("matches name, description and tag values, case-insensitively; terms are ORed", async () => {
    expect(await sortedNames("project=IS:text&query=NEW")).toEqual(["checkout-new"]);
    expect(await sortedNames("project=IS:text&query=payment")).toEqual(["checkout-new", "tagged-only"]);
    expect(await sortedNames("project=IS:text&query=ranking, promo")).toEqual(["promo-100", "search_v2"]);
  });

  it("treats % and _ as literal characters", async () => {
    expect(await sortedNames("project=IS:text&query=search_")).toEqual(["search_v2"]);
    expect(await sortedNames("project=IS:text&query=100%25")).toEqual(["promo-100"]);
    expect(await sortedNames("project=IS:text&query=%25")).toEqual(["promo-100"]);
  });

  it("ignores empty terms", async () => {
    expect((await names("project=IS:text&query=%20,%20")).length).toBe(5);
  });
});

describe("project, type and createdBy operators", () => {
  it("IS, IS_NOT, IS_ANY_OF, IS_NONE_OF on project", async () => {
    expect(await sortedNames("project=IS:dates")).toEqual(["dt-feb", "dt-jan"]);
    expect(await sortedNames("project=IS_ANY_OF:dates,state")).toEqual([
      "dt-feb",
      "dt-jan",
      "st-active",
      "st-potential",
      "st-stale",
    ]);
    const notDates = await names("project=IS_NOT:dates");
    expect(notDates).not.toContain("dt-jan");
    expect(notDates).toContain("st-active");
    const noneOf = await names("project=IS_NONE_OF:dates,state,text,tags,segs,life");
    expect(noneOf.sort()).toEqual(["op-experiment", "op-nobody", "op-on-dev", "op-release"]);
  });

  it("type operators", async () => {
    expect(await sortedNames("project=IS:ops&type=IS:experiment")).toEqual(["op-experiment"]);
    expect(await sortedNames("project=IS:ops&type=IS_ANY_OF:experiment,kill-switch")).toEqual([
      "op-experiment",
      "op-nobody",
    ]);
    expect(await sortedNames("project=IS:ops&type=IS_NOT:release")).toEqual([
      "op-experiment",
      "op-nobody",
      "op-on-dev",
    ]);
    expect(await sortedNames("project=IS:ops&type=IS_NONE_OF:release,experiment")).toEqual([
      "op-nobody",
      "op-on-dev",
    ]);
  });

  it("createdBy compares user ids; IS_NOT drops flags without a creator", async () => {
    const admin = await t.database.prisma.user.findFirstOrThrow({ where: { id: { gt: 0 } } });
    expect(await sortedNames(`project=IS:ops&createdBy=IS:${admin.id}`)).toEqual(["op-release"]);
    expect(await sortedNames(`project=IS:ops&createdBy=IS_ANY_OF:${admin.id},-42`)).toEqual([
      "op-experiment",
      "op-release",
    ]);
    expect(await sortedNames(`project=IS:ops&createdBy=IS_NOT:${admin.id}`)).toEqual(["op-experiment"]);
    expect(await sortedNames("project=IS:ops&createdBy=IS_NONE_OF:-42")).toEqual(["op-release"]);
    const bad = await t.rest("GET", "/api/admin/search/features?createdBy=IS:alice");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("createdBy");
  });
});

describe("tag and segment operators (reference-behaviours §1.3 example)", () => {
  const cases: [string, string[]][] = [
    ["INCLUDE:simple:my_tag", ["a", "d"]],
    ["DO_NOT_INCLUDE:simple:my_tag", ["b", "c", "e-colon"]],
    ["INCLUDE_ALL_OF:simple:my_tag,simple:tag_c", ["d"]],
    ["INCLUDE_ANY_OF:simple:my_tag,simple:tag_c", ["a", "c", "d"]],
    ["EXCLUDE_IF_ANY_OF:simple:my_tag,simple:tag_c", ["b", "e-colon"]],
    ["EXCLUDE_ALL:simple:my_tag,simple:tag_c", ["a", "b", "c", "e-colon"]],
  ];
  it.each(cases)("tag=%s", async (tag, expected) => {
    expect(await sortedNames(`project=IS:tags&tag=${encodeURIComponent(tag)}`)).toEqual(expected);
  });

  it.each(cases)("segment (same operators) for %s", async (tag, expected) => {
    const segment = tag.replaceAll("simple:my_tag", "my_segment").replaceAll("simple:tag_c", "segment_c");
    const want = expected.filter((n) => n !== "e-colon").map((n) => `s${n}`);
    expect(await sortedNames(`project=IS:segs&segment=${encodeURIComponent(segment)}`)).toEqual(want);
  });

  it("splits a tag on its first colon only", async () => {
    expect(await sortedNames("project=IS:tags&tag=INCLUDE:simple:my_tag:colon")).toEqual(["e-colon"]);
  });

  it("shows every tag of a matching flag, not just the filtered ones", async () => {
    const res = await t.rest("GET", "/api/admin/search/features?project=IS:tags&tag=INCLUDE:simple:tag_c");
    const d = res.body.features.find((f: { name: string }) => f.name === "d");
    expect(d.tags).toEqual([
      { type: "simple", value: "my_tag" },
      { type: "simple", value: "tag_c" },
    ]);
  });

  it("refuses tags without type:value with a 400 naming the parameter", async () => {
    for (const bad of ["EXCLUDE_ALL:simple", "EXCLUDE_ALL:simple,simple", "HAS:simple:x"]) {
      const res = await t.rest("GET", `/api/admin/search/features?tag=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.name).toBe("ValidationError");
      expect(res.body.message).toContain('"tag"');
    }
    const seg = await t.rest("GET", "/api/admin/search/features?segment=IS:x");
    expect(seg.status).toBe(400);
    expect(seg.body.message).toContain('"segment"');
  });
});

describe("state", () => {
  const cases: [string, string[]][] = [
    ["IS:active", ["st-active", "st-potential"]],
    ["IS:stale", ["st-stale"]],
    ["IS:potentially-stale", ["st-potential"]],
    ["IS_NOT:potentially-stale", ["st-active", "st-stale"]],
    ["IS_ANY_OF:active,potentially-stale", ["st-active", "st-potential"]],
    ["IS_ANY_OF:potentially-stale,stale", ["st-potential", "st-stale"]],
    ["IS_ANY_OF:active,stale,potentially-stale", ["st-active", "st-potential", "st-stale"]],
    ["IS_NONE_OF:active,stale,potentially-stale", []],
    ["IS_NONE_OF:active,potentially-stale", ["st-stale"]],
    ["IS_NONE_OF:potentially-stale,stale", ["st-active"]],
  ];
  it.each(cases)("state=%s", async (state, expected) => {
    expect(await sortedNames(`project=IS:state&state=${state}`)).toEqual(expected);
  });

  it("refuses unknown states and bad operators", async () => {
    expect((await t.rest("GET", "/api/admin/search/features?state=IS:old")).status).toBe(400);
    const res = await t.rest("GET", "/api/admin/search/features?state=active");
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('"state"');
  });
});

describe("lifecycle and archived", () => {
  const cases: [string, string[]][] = [
    ["", ["lc-initial", "lc-live"]],
    ["archived=true", ["lc-archived"]],
    ["archived=IS:true", ["lc-archived"]],
    ["archived=false", ["lc-initial", "lc-live"]],
    ["archived=IS:false", ["lc-initial", "lc-live"]],
    ["lifecycle=IS:live", ["lc-live"]],
    // the current stage counts, not every stage the flag went through
    ["lifecycle=IS:initial", ["lc-initial"]],
    ["lifecycle=IS:pre-live", []],
    ["lifecycle=IS:archived", ["lc-archived"]],
    ["lifecycle=IS_ANY_OF:live,archived", ["lc-archived", "lc-live"]],
    ["lifecycle=IS_NONE_OF:archived", ["lc-initial", "lc-live"]],
    ["lifecycle=IS_NOT:live", ["lc-initial"]],
    ["archived=true&lifecycle=IS:live", []],
    ["archived=true&lifecycle=IS_NOT:live", ["lc-archived"]],
  ];
  it.each(cases)("%s", async (q, expected) => {
    expect(await sortedNames(`project=IS:life&${q}`)).toEqual(expected);
  });

  it("follows stage changes made through the API (complete, uncomplete)", async () => {
    const stage = async (q: string) => sortedNames(`project=IS:life&lifecycle=${q}`);
    const path = "/api/admin/projects/life/features/lc-live/lifecycle";
    expect((await t.rest("POST", `${path}/complete`, { status: "kept" })).status).toBe(200);
    expect(await stage("IS:completed")).toEqual(["lc-live"]);
    expect(await stage("IS:live")).toEqual([]);
    expect((await t.rest("POST", `${path}/uncomplete`)).status).toBe(200);
    expect(await stage("IS:completed")).toEqual([]);
    expect(await stage("IS:live")).toEqual(["lc-live"]);
  });

  it("refuses bad values", async () => {
    expect((await t.rest("GET", "/api/admin/search/features?archived=yes")).status).toBe(400);
    expect((await t.rest("GET", "/api/admin/search/features?lifecycle=IS:done")).status).toBe(400);
  });
});

describe("status and createdAt", () => {
  it("status entries are ORed, given once, repeated or as status[]", async () => {
    expect(await sortedNames("project=IS:ops&status=development:enabled")).toEqual(["op-on-dev"]);
    expect(await sortedNames("project=IS:ops&status=production:enabled")).toEqual([]);
    expect(await sortedNames("project=IS:ops&status=development:enabled&status=production:enabled")).toEqual([
      "op-on-dev",
    ]);
    expect(await sortedNames("project=IS:ops&status[]=development:disabled")).toEqual([
      "op-experiment",
      "op-nobody",
      "op-release",
    ]);
    expect(await sortedNames("project=IS:ops&status=nowhere:enabled")).toEqual([]);
    const bad = await t.rest("GET", "/api/admin/search/features?status=development:on");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"status"');
  });

  it("IS_BEFORE is strict, IS_ON_OR_AFTER includes the day", async () => {
    expect(await names("project=IS:dates&createdAt=IS_BEFORE:2026-02-01")).toEqual(["dt-jan"]);
    expect(await names("project=IS:dates&createdAt=IS_ON_OR_AFTER:2026-02-01")).toEqual(["dt-feb"]);
    expect(await names("project=IS:dates&createdAt=IS_BEFORE:2026-01-31")).toEqual([]);
    for (const bad of ["IS:2026-02-01", "IS_BEFORE:2026-2-1", "IS_BEFORE:2026-02-30"]) {
      const res = await t.rest("GET", `/api/admin/search/features?createdAt=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("createdAt");
    }
  });

  it("GraphQL takes the same filters as typed inputs", async () => {
    const res = await t.gql(
      `query($f: FeatureSearchFilter) { featureSearch(filter: $f) { totalCount edges { node { name } } } }`,
      {
        f: {
          project: { operator: "IS", values: ["tags"] },
          tag: {
            operator: "INCLUDE_ALL_OF",
            values: [
              { type: "simple", value: "my_tag" },
              { type: "simple", value: "tag_c" },
            ],
          },
        },
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ featureSearch: { totalCount: 1, edges: [{ node: { name: "d" } }] } });
    const wrong = await t.gql(
      `{ featureSearch(filter: { project: { operator: CONTAINS, values: ["x"] } }) { totalCount } }`,
    );
    expect(wrong.errors?.[0]?.message).toContain("CONTAINS");
  });

  it("an empty tag list matches no flag to include and excludes none", async () => {
    const count = async (operator: string) => {
      const res = await t.gql<{ featureSearch: { totalCount: number } }>(
        `query($f: FeatureSearchFilter) { featureSearch(filter: $f) { totalCount } }`,
        { f: { project: { operator: "IS", values: ["tags"] }, tag: { operator, values: [] } } },
      );
      expect(res.errors).toBeUndefined();
      return res.data?.featureSearch.totalCount;
    };
    const all = await count("DO_NOT_INCLUDE");
    expect(all).toBeGreaterThan(0);
    expect(await count("INCLUDE")).toBe(0);
    expect(await count("INCLUDE_ALL_OF")).toBe(0);
    expect(await count("EXCLUDE_ALL")).toBe(all);
  });
});
