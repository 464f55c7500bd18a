import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's flag links (issue 14): add, update and delete a flag's links over REST (204), shown
 * as the flag's `links` (REST and GraphQL), with feature-link-* events. Answers are checked
 * against each route's schema.
 */
let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "links-viewer", "Viewer")).token;
  await newFlag("other-linked");
});
afterAll(() => t.close());

const flagPath = (name: string) => `/api/admin/projects/default/features/${name}`;
/** A flag of its own for a test, over REST. */
async function newFlag(name: string) {
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name })).status).toBe(201);
  return flagPath(name);
}
const events = (type: string, featureName: string) =>
  t.database.prisma.event.findMany({ where: { type, featureName }, orderBy: { id: "asc" } });
const linksOf = async (name: string) =>
  (await t.rest("GET", flagPath(name))).body.links as { id: string; url: string; title: string | null }[];
/** Adds a link that must be accepted (204). */
async function addLink(flag: string, link: { url: string; title?: string }) {
  expect((await t.rest("POST", `${flag}/link`, link)).status).toBe(204);
}

describe("flag links over REST", () => {
  it("adds a link (204), shown in the flag's links, with feature-link-added {url, title}", async () => {
    const FLAG = await newFlag("linked");
    const added = await t.rest("POST", `${FLAG}/link`, {
      url: "https://example.com/issues/42",
      title: "Issue",
    });
    expect(added).toMatchObject({ status: 204, body: undefined });
    expect(
      (await t.rest("POST", `${FLAG}/link`, { url: "github.com/acme/app/search?q=linked" })).status,
    ).toBe(204);
    expect(await linksOf("linked")).toEqual([
      { id: expect.any(String), url: "https://example.com/issues/42", title: "Issue", feature: "linked" },
      {
        id: expect.any(String),
        url: "https://github.com/acme/app/search?q=linked",
        title: null,
        feature: "linked",
      },
    ]);
    const [event] = await events("feature-link-added", "linked");
    expect(event).toMatchObject({
      project: "default",
      featureName: "linked",
      data: { url: "https://example.com/issues/42", title: "Issue" },
      label: "Flag link added",
    });
  });

  it("refuses a URL that is not http(s) (400), a missing flag (404), a viewer (403)", async () => {
    const FLAG = await newFlag("refusing-links");
    await addLink(FLAG, { url: "https://example.com/issues/42", title: "Issue" });
    await addLink(FLAG, { url: "github.com/acme/app" });
    expect((await t.rest("POST", `${FLAG}/link`, { url: "javascript:alert(1)" })).status).toBe(400);
    expect((await t.rest("POST", `${FLAG}/link`, { url: "https://" })).status).toBe(400);
    expect((await t.rest("POST", `${FLAG}/link`, { title: "no url" })).status).toBe(400);
    expect(
      (await t.rest("POST", "/api/admin/projects/default/features/nope/link", { url: "a.io" })).status,
    ).toBe(404);
    expect((await t.rest("POST", `${FLAG}/link`, { url: "https://a.io" }, viewer)).status).toBe(403);
    expect(await linksOf("refusing-links")).toHaveLength(2);
  });

  it("updates a link (204) with data and preData; a link of another flag is 404", async () => {
    const FLAG = await newFlag("updated-link");
    await addLink(FLAG, { url: "https://example.com/issues/42", title: "Issue" });
    const [first] = await linksOf("updated-link");
    const path = `${FLAG}/link/${first?.id}`;
    expect(await t.rest("PUT", path, { url: "https://example.com/issues/43", title: "Next" })).toMatchObject({
      status: 204,
    });
    expect((await linksOf("updated-link"))[0]).toMatchObject({
      url: "https://example.com/issues/43",
      title: "Next",
    });
    const [event] = await events("feature-link-updated", "updated-link");
    expect(event).toMatchObject({
      featureName: "updated-link",
      data: { url: "https://example.com/issues/43", title: "Next" },
      preData: { url: "https://example.com/issues/42", title: "Issue" },
    });
    const elsewhere = `/api/admin/projects/default/features/other-linked/link/${first?.id}`;
    expect((await t.rest("PUT", elsewhere, { url: "https://x.io" })).status).toBe(404);
    expect((await t.rest("PUT", `${FLAG}/link/no-such-link`, { url: "https://x.io" })).status).toBe(404);
  });

  it("at most 10 links per flag (403 past that)", async () => {
    const FLAG = await newFlag("many-links");
    for (let i = 0; i < 10; i++) await addLink(FLAG, { url: `https://example.com/${i}` });
    const refused = await t.rest("POST", `${FLAG}/link`, { url: "https://example.com/11" });
    expect(refused.status).toBe(403);
    expect(await linksOf("many-links")).toHaveLength(10);
  });

  it("deletes a link (204) with feature-link-removed; GraphQL shows the links too", async () => {
    const FLAG = await newFlag("unlinked");
    await addLink(FLAG, { url: "https://example.com/issues/43", title: "Next" });
    await addLink(FLAG, { url: "github.com/acme/app/search?q=linked" });
    await addLink(FLAG, { url: "https://example.com/0" });
    const [first] = await linksOf("unlinked");
    expect(await t.rest("DELETE", `${FLAG}/link/${first?.id}`)).toMatchObject({ status: 204 });
    expect((await t.rest("DELETE", `${FLAG}/link/${first?.id}`)).status).toBe(404);
    const [event] = await events("feature-link-removed", "unlinked");
    expect(event).toMatchObject({
      featureName: "unlinked",
      preData: { url: "https://example.com/issues/43" },
    });
    const res = await t.gql<{ feature: { links: { url: string }[] } }>(
      `{ feature(name: "unlinked") { links { id url title feature createdAt } } }`,
    );
    expect(res.data?.feature.links).toHaveLength(2);
    expect(res.data?.feature.links[0]?.url).toBe("https://github.com/acme/app/search?q=linked");
  });
});
