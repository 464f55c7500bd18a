import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markPotentiallyStaleOnce } from "../../src/jobs/potentially-stale.ts";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import {
  apiToken,
  archiveFlag,
  createFlag,
  createProject,
  createSegment,
  createTagType,
  type FlagOptions,
  reportMetrics,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";

let t: TestApp;
let creator: TestUser;

/** Names of the flags a search returns, in order (asserting a 200). */
async function names(query: string): Promise<string[]> {
  const res = await t.rest("GET", `/api/admin/search/features?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.features.map((f: { name: string }) => f.name);
}

const simple = (...values: string[]) => values.map((value) => ({ type: "simple", value }));

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  for (const p of ["text", "tags", "segs", "state", "life", "dates", "ops"]) await createProject(t, p);
  await createTagType(t, "team");
  const segment = {
    my_segment: await createSegment(t, "my_segment"),
    c: await createSegment(t, "segment_c"),
  };
  const withSegments = (...segments: number[]): FlagOptions => ({
    project: "segs",
    strategies: [{ name: "flexibleRollout", segments }],
  });
  // query
  await createFlag(t, "checkout-new", { project: "text", description: "The NEW payment page" });
  await createFlag(t, "search_v2", { project: "text", description: "ranking" });
  await createFlag(t, "searchxv2", { project: "text" });
  await createFlag(t, "promo-100", { project: "text", description: "100% off" });
  await createFlag(t, "tagged-only", { project: "text", tags: [{ type: "team", value: "payments" }] });
  // tag example of reference-behaviours §1.3
  await createFlag(t, "a", { project: "tags", tags: simple("my_tag") });
  await createFlag(t, "b", { project: "tags" });
  await createFlag(t, "c", { project: "tags", tags: simple("tag_c") });
  await createFlag(t, "d", { project: "tags", tags: simple("tag_c", "my_tag") });
  await createFlag(t, "e-colon", { project: "tags", tags: simple("my_tag:colon") });
  // the same with segments
  await createFlag(t, "sa", withSegments(segment.my_segment));
  await createFlag(t, "sb", { project: "segs" });
  await createFlag(t, "sc", withSegments(segment.c));
  await createFlag(t, "sd", withSegments(segment.c, segment.my_segment));
  // state: st-potential is the only flag old enough for the potentially-stale job
  await createFlag(t, "st-active", { project: "state" });
  await createFlag(t, "st-stale", { project: "state" });
  await withClock(t, new Date("2025-01-01T00:00:00Z"), () =>
    createFlag(t, "st-potential", { project: "state" }),
  );
  expect(await markPotentiallyStaleOnce(t.deps)).toEqual(["st-potential"]);
  expect(
    (await t.rest("POST", "/api/admin/projects/state/stale", { features: ["st-stale"], stale: true })).status,
  ).toBe(202);
  // lifecycle: lc-live is on in production and reported from there (initial, pre-live, live)
  await createFlag(t, "lc-initial", { project: "life" });
  await createFlag(t, "lc-live", { project: "life", enabledIn: ["production"] });
  expect(
    await reportMetrics(t, await apiToken(t, "client", "production", ["life"]), {
      "lc-live": { yes: 1, no: 0 },
    }),
  ).toBe(202);
  await createFlag(t, "lc-archived", { project: "life" });
  await archiveFlag(t, "lc-archived", "life");
  // dates, types, creators (a user, the admin token's -42, none)
  await withClock(t, new Date("2026-01-31T23:59:59Z"), () => createFlag(t, "dt-jan", { project: "dates" }));
  await withClock(t, new Date("2026-02-01T00:00:00Z"), () => createFlag(t, "dt-feb", { project: "dates" }));
  creator = await userWithPat(t, "flag-creator", "Editor");
  const byCreator = { name: "op-release", type: "release" };
  expect((await t.rest("POST", "/api/admin/projects/ops/features", byCreator, creator.token)).status).toBe(
    201,
  );
  await createFlag(t, "op-experiment", { project: "ops", type: "experiment" });
  await createFlag(t, "op-nobody", { project: "ops", type: "kill-switch" });
  await createFlag(t, "op-on-dev", { project: "ops", type: "operational", enabledIn: ["development"] });
  // Direct write: every API write has a creator (a user, the admin token's -42 or the system's
  // -1337); flags without one are older than creators (imported, or made before they were kept).
  await t.database.prisma.feature.updateMany({
    where: { name: { in: ["op-nobody", "op-on-dev"] } },
    data: { createdByUserId: null },
  });
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
    expect(await sortedNames(`project=IS:ops&createdBy=IS:${creator.id}`)).toEqual(["op-release"]);
    expect(await sortedNames(`project=IS:ops&createdBy=IS_ANY_OF:${creator.id},-42`)).toEqual([
      "op-experiment",
      "op-release",
    ]);
    expect(await sortedNames(`project=IS:ops&createdBy=IS_NOT:${creator.id}`)).toEqual(["op-experiment"]);
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
      { type: "simple", value: "my_tag", color: null },
      { type: "simple", value: "tag_c", color: null },
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
