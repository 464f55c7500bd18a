import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlOk } from "../helpers/builders.ts";

/**
 * Unleash 8.2 copies a tag type's colour into each tag of a flag where it lists them (a flag's
 * tags, read or replaced; flag search), and its export carries the tag types whole and each
 * link's id. Answers are checked against each route's response schema (checkRestResponses).
 */
let t: TestApp;
const TEAM = "#1a2b3c";
const FLAG = "colourful";
const P = "/api/admin/projects/default";

beforeAll(async () => {
  t = await createTestApp();
  expect((await t.rest("POST", "/api/admin/tag-types", { name: "team", color: TEAM })).status).toBe(201);
  await createFlag(t, FLAG);
  for (const tag of [
    { type: "team", value: "payments" },
    { type: "simple", value: "web" },
  ]) {
    expect((await t.rest("POST", `/api/admin/features/${FLAG}/tags`, tag)).status).toBe(201);
  }
  const link = await t.rest("POST", `${P}/features/${FLAG}/link`, { url: "https://example.com/doc" });
  expect(link.status).toBe(204);
});
afterAll(() => t.close());

const TAGS = [
  { type: "simple", value: "web", color: null },
  { type: "team", value: "payments", color: TEAM },
];

describe("a flag's tags carry their type's colour", () => {
  it("GET and PUT /features/:f/tags answer each tag with its type's colour (null when it has none)", async () => {
    const read = await t.rest("GET", `/api/admin/features/${FLAG}/tags`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ version: 1, tags: TAGS });
    const replaced = await t.rest("PUT", `/api/admin/features/${FLAG}/tags`, {
      addedTags: [{ type: "team", value: "checkout" }],
      removedTags: [{ type: "team", value: "checkout" }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ version: 1, tags: TAGS });
  });

  it("POST answers the tag as sent, as Unleash does (which drops a colour in the body)", async () => {
    const res = await t.rest("POST", `/api/admin/features/${FLAG}/tags`, {
      type: "team",
      value: "payments",
      color: "#ffffff",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ type: "team", value: "payments" });
  });

  it("flag search answers the colour in each tag", async () => {
    const res = await t.rest("GET", `/api/admin/search/features?query=${FLAG}`);
    expect(res.status).toBe(200);
    expect(res.body.features.map((f: { name: string; tags: unknown }) => [f.name, f.tags])).toEqual([
      [FLAG, TAGS],
    ]);
  });

  it("GraphQL: Tag.color on a flag, its tags, flag search and tagging", async () => {
    const data = await gqlOk(
      t,
      `query($name: String!) {
        feature(name: $name) { tags { type value color } }
        featureTags(feature: $name) { type value color }
        featureSearch(filter: { query: $name }) { edges { node { tags { type value color } } } } }`,
      { name: FLAG },
    );
    expect(data.feature.tags).toEqual(TAGS);
    expect(data.featureTags).toEqual(TAGS);
    expect(data.featureSearch.edges[0].node.tags).toEqual(TAGS);
    const tagged = await gqlOk(
      t,
      `mutation($name: String!) {
        first: addFeatureTag(feature: $name, type: "team", value: "growth") { type value color }
        again: addFeatureTag(feature: $name, type: "team", value: "growth") { type value color } }`,
      { name: FLAG },
    );
    expect(tagged).toEqual({
      first: { type: "team", value: "growth", color: TEAM },
      again: { type: "team", value: "growth", color: TEAM },
    });
    await gqlOk(
      t,
      `mutation($name: String!) { removeFeatureTag(feature: $name, type: "team", value: "growth") { name } }`,
      {
        name: FLAG,
      },
    );
  });

  it("a new colour of the type shows in its tags at once", async () => {
    expect((await t.rest("PUT", "/api/admin/tag-types/team", { color: "#000000" })).status).toBe(200);
    try {
      const read = await t.rest("GET", `/api/admin/features/${FLAG}/tags`);
      expect(read.body.tags).toContainEqual({ type: "team", value: "payments", color: "#000000" });
      const found = await t.rest("GET", `/api/admin/search/features?query=${FLAG}`);
      expect(found.body.features[0].tags).toContainEqual({
        type: "team",
        value: "payments",
        color: "#000000",
      });
    } finally {
      expect((await t.rest("PUT", "/api/admin/tag-types/team", { color: TEAM })).status).toBe(200);
    }
  });
});

describe("the export carries the tag types whole and the links' ids", () => {
  it("tagTypes have name, description, icon and colour (null when unset); links have their id", async () => {
    const doc = await t.rest("POST", "/api/admin/features-batch/export", {
      environment: "development",
      features: [FLAG],
    });
    expect(doc.status).toBe(200);
    expect(doc.body.tagTypes).toEqual([
      { name: "simple", description: "Used to simplify filtering of features", icon: "#", color: null },
      { name: "team", description: null, icon: null, color: TEAM },
    ]);
    const flag = await t.rest("GET", `${P}/features/${FLAG}`);
    const [link] = flag.body.links as { id: string }[];
    expect(doc.body.links).toEqual([
      { feature: FLAG, links: [{ id: link?.id, url: "https://example.com/doc", title: null }] },
    ]);
  });

  it("an exported document imports again (the link ids are not needed to import)", async () => {
    const doc = await t.rest("POST", "/api/admin/features-batch/export", {
      environment: "development",
      features: [FLAG],
    });
    const validated = await t.rest("POST", "/api/admin/features-batch/validate", {
      project: "default",
      environment: "development",
      data: doc.body,
    });
    expect(validated.status).toBe(200);
    expect(validated.body.errors).toEqual([]);
  });
});
