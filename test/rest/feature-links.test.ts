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
  for (const name of ["linked", "other-linked"]) {
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name })).status).toBe(201);
  }
});
afterAll(() => t.close());

const FLAG = "/api/admin/projects/default/features/linked";
const events = (type: string) =>
  t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } });
const links = async () =>
  (await t.rest("GET", FLAG)).body.links as { id: string; url: string; title: string | null }[];

describe("flag links over REST", () => {
  it("adds a link (204), shown in the flag's links, with feature-link-added {url, title}", async () => {
    const added = await t.rest("POST", `${FLAG}/link`, {
      url: "https://example.com/issues/42",
      title: "Issue",
    });
    expect(added).toMatchObject({ status: 204, body: undefined });
    expect(
      (await t.rest("POST", `${FLAG}/link`, { url: "github.com/acme/app/search?q=linked" })).status,
    ).toBe(204);
    expect(await links()).toEqual([
      { id: expect.any(String), url: "https://example.com/issues/42", title: "Issue", feature: "linked" },
      {
        id: expect.any(String),
        url: "https://github.com/acme/app/search?q=linked",
        title: null,
        feature: "linked",
      },
    ]);
    const [event] = await events("feature-link-added");
    expect(event).toMatchObject({
      project: "default",
      featureName: "linked",
      data: { url: "https://example.com/issues/42", title: "Issue" },
      label: "Flag link added",
    });
  });

  it("refuses a URL that is not http(s) (400), a missing flag (404), a viewer (403)", async () => {
    expect((await t.rest("POST", `${FLAG}/link`, { url: "javascript:alert(1)" })).status).toBe(400);
    expect((await t.rest("POST", `${FLAG}/link`, { url: "https://" })).status).toBe(400);
    expect((await t.rest("POST", `${FLAG}/link`, { title: "no url" })).status).toBe(400);
    expect(
      (await t.rest("POST", "/api/admin/projects/default/features/nope/link", { url: "a.io" })).status,
    ).toBe(404);
    expect((await t.rest("POST", `${FLAG}/link`, { url: "https://a.io" }, viewer)).status).toBe(403);
    expect(await links()).toHaveLength(2);
  });

  it("updates a link (204) with data and preData; a link of another flag is 404", async () => {
    const [first] = await links();
    const path = `${FLAG}/link/${first?.id}`;
    expect(await t.rest("PUT", path, { url: "https://example.com/issues/43", title: "Next" })).toMatchObject({
      status: 204,
    });
    expect((await links())[0]).toMatchObject({ url: "https://example.com/issues/43", title: "Next" });
    const [event] = await events("feature-link-updated");
    expect(event).toMatchObject({
      featureName: "linked",
      data: { url: "https://example.com/issues/43", title: "Next" },
      preData: { url: "https://example.com/issues/42", title: "Issue" },
    });
    const elsewhere = `/api/admin/projects/default/features/other-linked/link/${first?.id}`;
    expect((await t.rest("PUT", elsewhere, { url: "https://x.io" })).status).toBe(404);
    expect((await t.rest("PUT", `${FLAG}/link/no-such-link`, { url: "https://x.io" })).status).toBe(404);
  });

  it("at most 10 links per flag (403 past that)", async () => {
    for (let i = 0; i < 8; i++) {
      expect((await t.rest("POST", `${FLAG}/link`, { url: `https://example.com/${i}` })).status).toBe(204);
    }
    const refused = await t.rest("POST", `${FLAG}/link`, { url: "https://example.com/11" });
    expect(refused.status).toBe(403);
    expect(await links()).toHaveLength(10);
  });

  it("deletes a link (204) with feature-link-removed; GraphQL shows the links too", async () => {
    const [first] = await links();
    expect(await t.rest("DELETE", `${FLAG}/link/${first?.id}`)).toMatchObject({ status: 204 });
    expect((await t.rest("DELETE", `${FLAG}/link/${first?.id}`)).status).toBe(404);
    const [event] = await events("feature-link-removed");
    expect(event).toMatchObject({ featureName: "linked", preData: { url: "https://example.com/issues/43" } });
    const res = await t.gql<{ feature: { links: { url: string }[] } }>(
      `{ feature(name: "linked") { links { id url title feature createdAt } } }`,
    );
    expect(res.data?.feature.links).toHaveLength(9);
    expect(res.data?.feature.links[0]?.url).toBe("https://github.com/acme/app/search?q=linked");
  });
});
