import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";

beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "tagme");
  await createFlag(t, "fav");
});
afterAll(() => t.close());

/** A flag of a test's own tagged simple:`value`, over REST. */
async function taggedFlag(name: string, value: string) {
  await createFlag(t, name);
  const res = await t.rest("POST", `/api/admin/features/${name}/tags`, { type: "simple", value });
  expect(res.status).toBe(201);
}

describe("tags", () => {
  it("POST tags with 201: a new value is created (tag-created) and feature-tagged recorded", async () => {
    await createFlag(t, "tagged-first");
    const { result, events } = await recorded(t, () =>
      t.rest("POST", "/api/admin/features/tagged-first/tags", { type: "simple", value: "alpha" }),
    );
    expect(result).toMatchObject({ status: 201, body: { type: "simple", value: "alpha" } });
    expect(
      events.map(({ type, featureName, project, data, preData, tags }) => ({
        type,
        featureName,
        project,
        data,
        preData,
        tags,
      })),
    ).toEqual([
      {
        type: "tag-created",
        featureName: null,
        project: null,
        data: { type: "simple", value: "alpha" },
        preData: null,
        tags: [],
      },
      {
        type: "feature-tagged",
        featureName: "tagged-first",
        project: "default",
        data: { type: "simple", value: "alpha" },
        preData: null,
        tags: [{ type: "simple", value: "alpha" }],
      },
    ]);
  });

  it("tagging again records nothing; GET lists {version: 1, tags}", async () => {
    await taggedFlag("tagged-twice", "again");
    const again = await recorded(t, () =>
      t.gql(
        `mutation { addFeatureTag(feature: "tagged-twice", type: "simple", value: "again") { type value } }`,
      ),
    );
    expect(again.result).toEqual({ data: { addFeatureTag: { type: "simple", value: "again" } } });
    expect(again.events).toEqual([]);
    const list = await t.rest("GET", "/api/admin/features/tagged-twice/tags");
    expect(list).toMatchObject({
      status: 200,
      body: { version: 1, tags: [{ type: "simple", value: "again" }] },
    });
    expect((await t.rest("GET", "/api/admin/features/ghost/tags")).status).toBe(404);
  });

  it("refuses an unknown tag type (404), a bad value (400 naming value) and an unknown flag (404)", async () => {
    const { result, events } = await recorded(t, async () => [
      await t.rest("POST", "/api/admin/features/tagme/tags", { type: "nope", value: "alpha" }),
      await t.rest("POST", "/api/admin/features/tagme/tags", { type: "simple", value: "a" }),
      await t.rest("POST", "/api/admin/features/ghost/tags", { type: "simple", value: "alpha" }),
    ]);
    const [type, value, flag] = result as { status: number; body: { message: string } }[];
    expect(type?.status).toBe(404);
    expect(type?.body.message).toMatch(/tag type/);
    expect(value?.status).toBe(400);
    expect(value?.body.message).toMatch(/^value: /);
    expect(flag?.status).toBe(404);
    expect(events).toEqual([]);
  });

  it("a flag created with tags treats them as tagging does: tag-created for a new value, 404 for an unknown type", async () => {
    const { result, events } = await recorded(t, () =>
      t.rest("POST", `${P}/features`, { name: "born-tagged", tags: [{ type: "simple", value: "beta" }] }),
    );
    expect((result as { status: number }).status).toBe(201);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["tag-created", { type: "simple", value: "beta" }],
      ["feature-created", expect.objectContaining({ name: "born-tagged" })],
    ]);
    const unknown = await recorded(t, () =>
      t.rest("POST", `${P}/features`, { name: "born-wrong", tags: [{ type: "nope", value: "beta" }] }),
    );
    const refused = unknown.result as { status: number; body: { message: string } };
    expect(refused.status).toBe(404);
    expect(refused.body.message).toMatch(/tag type "nope"/);
    expect(unknown.events).toEqual([]);
    expect((await t.rest("GET", `${P}/features/born-wrong`)).status).toBe(404);
  });

  it("DELETE untags: feature-untagged with preData, none when absent", async () => {
    await taggedFlag("untagged", "gone");
    const { result, events } = await recorded(t, () =>
      t.rest("DELETE", "/api/admin/features/untagged/tags/simple/gone"),
    );
    expect((result as { status: number }).status).toBe(200);
    expect(events).toEqual([
      expect.objectContaining({
        type: "feature-untagged",
        featureName: "untagged",
        data: null,
        preData: { type: "simple", value: "gone" },
        tags: [],
      }),
    ]);
    const again = await recorded(t, () =>
      t.gql(
        `mutation { removeFeatureTag(feature: "untagged", type: "simple", value: "gone") { tags { value } } }`,
      ),
    );
    expect(again.result).toEqual({ data: { removeFeatureTag: { tags: [] } } });
    expect(again.events).toEqual([]);
  });
});

describe("favourites (an admin API token favourites as the shared admin-token user)", () => {
  it("favourites a flag over REST: feature-favorited {feature}, favorite true; repeat records nothing", async () => {
    const { result, events } = await recorded(t, () => t.rest("POST", `${P}/features/fav/favorites`));
    expect((result as { status: number }).status).toBe(200);
    expect(events).toEqual([
      expect.objectContaining({
        type: "feature-favorited",
        featureName: "fav",
        project: null,
        createdByUserId: -42,
        data: { feature: "fav" },
      }),
    ]);
    expect((await t.rest("GET", `${P}/features/fav`)).body.favorite).toBe(true);
    expect((await t.rest("GET", `${P}/features/tagme`)).body.favorite).toBe(false);
    const again = await recorded(t, () =>
      t.gql(`mutation { favoriteFeature(project: "default", feature: "fav") { favorite } }`),
    );
    expect(again.result).toEqual({ data: { favoriteFeature: { favorite: true } } });
    expect(again.events).toEqual([]);
  });

  it("unfavourites a flag: feature-unfavorited", async () => {
    await createFlag(t, "unfav");
    expect((await t.rest("POST", `${P}/features/unfav/favorites`)).status).toBe(200);
    const { brief } = await recorded(t, () => t.rest("DELETE", `${P}/features/unfav/favorites`));
    expect(brief).toEqual([
      { type: "feature-unfavorited", featureName: "unfav", data: { feature: "unfav" }, preData: null },
    ]);
    expect((await t.rest("GET", `${P}/features/unfav`)).body.favorite).toBe(false);
    expect((await t.rest("POST", `${P}/features/ghost/favorites`)).status).toBe(404);
  });

  it("favourites and unfavourites a project: project-favorited/-unfavorited", async () => {
    const on = await recorded(t, () => t.rest("POST", `${P}/favorites`));
    expect(on.events).toEqual([
      expect.objectContaining({
        type: "project-favorited",
        project: "default",
        data: { project: "default" },
      }),
    ]);
    expect((await t.gql(`{ project(id: "default") { favorite } }`)).data).toEqual({
      project: { favorite: true },
    });
    const off = await recorded(t, () =>
      t.gql(`mutation { unfavoriteProject(project: "default") { favorite } }`),
    );
    expect(off.result).toEqual({ data: { unfavoriteProject: { favorite: false } } });
    expect(off.events.map((e) => e.type)).toEqual(["project-unfavorited"]);
    expect(gqlCode(await t.gql(`mutation { favoriteProject(project: "ghost") { id } }`))).toBe("NOT_FOUND");
  });
});
