import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollUpEventCounts } from "../../src/modules/events/event-counts.job.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, userWithPat } from "../helpers/builders.ts";

/*
 * Issue 12 item 6: one visibility rule for every way of reading events. Admins read every
 * event; Viewers and Editors read the events of the projects they may read (every project)
 * and never the events of no project: user-created (emails), pat-created, tag-created, role
 * and token events.
 */
let t: TestApp;
let viewer: string;
let editor: string;
let adminUser: string;

async function countInDb(where: { withProject?: boolean; type?: string } = {}) {
  return t.database.prisma.event.count({
    where: {
      ...(where.withProject ? { project: { not: null } } : {}),
      ...(where.type ? { type: where.type } : {}),
    },
  });
}

async function makeEvents(suffix: string) {
  await createFlag(t, `visible-${suffix}`);
  const user = await t.rest("POST", "/api/admin/user-admin", {
    email: `hidden-${suffix}@example.com`,
    name: `Hidden ${suffix}`,
    rootRole: "Viewer",
  });
  expect(user.status).toBe(201);
  const tagType = await t.rest("POST", "/api/admin/tag-types", { name: `kind-${suffix}` });
  expect(tagType.status, JSON.stringify(tagType.body)).toBeLessThan(300);
  const tag = await t.rest("POST", "/api/admin/tags", { type: `kind-${suffix}`, value: `tag-${suffix}` });
  expect(tag.status, JSON.stringify(tag.body)).toBeLessThan(300);
}

beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "vic-viewer", "Viewer")).token;
  editor = (await userWithPat(t, "ed-editor", "Editor")).token;
  adminUser = (await userWithPat(t, "ann-admin", "Admin")).token;
  await makeEvents("one");
  // Half the log rolled up, half newer: totals come from both the rollup and the live count.
  await rollUpEventCounts(t.database.prisma, { maxWaitMs: 1000 });
  await makeEvents("two");
});
afterAll(() => t.close());

const GQL_SEARCH = `query($filter: EventSearchFilter) {
  eventSearch(filter: $filter, first: 1000) { totalCount edges { node { type project createdBy } } }
}`;

async function gqlSearch(token: string, filter: Record<string, unknown> = {}) {
  const res = await t.gql<{
    eventSearch: { totalCount: number; edges: { node: { type: string; project: string | null } }[] };
  }>(GQL_SEARCH, { filter }, token);
  expect(res.errors).toBeUndefined();
  const page = res.data!.eventSearch;
  return { total: page.totalCount, events: page.edges.map((e) => e.node) };
}

async function restSearch(token: string, query = "") {
  const res = await t.rest("GET", `/api/admin/search/events?limit=1000${query}`, undefined, token);
  expect(res.status).toBe(200);
  return res.body as { total: number; events: { type: string; project: string | null }[] };
}

describe("event visibility", () => {
  it("the seed wrote events of no project (users, PATs, tags)", async () => {
    expect(await countInDb()).toBeGreaterThan(await countInDb({ withProject: true }));
    expect(await countInDb({ type: "user-created" })).toBeGreaterThan(0);
    expect(await countInDb({ type: "pat-created" })).toBeGreaterThan(0);
    expect(await countInDb({ type: "tag-created" })).toBeGreaterThan(0);
  });

  for (const [role, tokenOf] of [
    ["Viewer", () => viewer],
    ["Editor", () => editor],
  ] as const) {
    it(`a ${role} reads only events that have a project, through GraphQL and REST`, async () => {
      const token = tokenOf();
      const withProject = await countInDb({ withProject: true });
      for (const page of [await gqlSearch(token), await restSearch(token)]) {
        expect(page.total).toBe(withProject);
        expect(page.events).toHaveLength(withProject);
        expect(page.events.every((e) => e.project !== null)).toBe(true);
      }
      const legacy = await t.gql<{ events: { totalCount: number } }>(
        `{ events(first: 1000) { totalCount } }`,
        undefined,
        token,
      );
      expect(legacy.data?.events.totalCount).toBe(withProject);
      const deprecated = await t.rest("POST", "/api/admin/events/search", {}, token);
      expect(deprecated.body.totalEvents).toBe(withProject);
      expect(deprecated.body.events.every((e: { project: string | null }) => e.project !== null)).toBe(true);
    });

    it(`a ${role} cannot find hidden events by type or by text`, async () => {
      const token = tokenOf();
      for (const type of ["user-created", "pat-created", "tag-created"]) {
        expect((await gqlSearch(token, { type: { operator: "IS", values: [type] } })).total).toBe(0);
        expect((await restSearch(token, `&type=IS:${type}`)).events).toEqual([]);
      }
      // With a rolled-up pair (project + type): the count of a visible type stays exact.
      const created = await gqlSearch(token, { type: { operator: "IS", values: ["feature-created"] } });
      expect(created.total).toBe(await countInDb({ type: "feature-created" }));
      // Free text: the emails of user-created events are not searchable (PAYLOAD and legacy scope).
      expect((await restSearch(token, "&query=example.com")).total).toBe(0);
      const legacyText = await t.rest("POST", "/api/admin/events/search", { query: "hidden-one" }, token);
      expect(legacyText.body.totalEvents).toBe(0);
    });
  }

  it("admins (the admin token and an Admin user) read every event", async () => {
    const all = await countInDb();
    for (const token of [ADMIN_TOKEN, adminUser]) {
      expect((await gqlSearch(token)).total).toBe(all);
      expect((await restSearch(token)).total).toBe(all);
      expect((await restSearch(token, "&type=IS:user-created")).total).toBe(
        await countInDb({ type: "user-created" }),
      );
      expect((await restSearch(token, "&query=hidden-one%40example.com")).total).toBeGreaterThan(0);
    }
  });

  it("a flag's events and the live feed follow the same rule", async () => {
    const flagEvents = await t.rest("GET", "/api/admin/events/visible-one", undefined, viewer);
    expect(flagEvents.status).toBe(200);
    expect(flagEvents.body.events.map((e: { type: string }) => e.type)).toEqual(["feature-created"]);
    // The live feed's replay (afterId 0) runs through the same visibility; over SSE here.
    const res = await t.app.fetch("http://vexil.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: viewer },
      body: JSON.stringify({ query: "subscription { events(afterId: 0) { id project type } }" }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const seen: { project: string | null; type: string }[] = [];
    const expected = await countInDb({ withProject: true });
    let buffer = "";
    while (seen.length < expected) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value);
      for (const match of buffer.matchAll(/^data: (.+)$/gm)) {
        const event = JSON.parse(match[1] as string).data?.events;
        if (event) seen.push(event);
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    }
    await reader.cancel();
    expect(seen).toHaveLength(expected);
    expect(seen.every((e) => e.project !== null)).toBe(true);
  });
});
