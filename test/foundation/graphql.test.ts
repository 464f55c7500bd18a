import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GraphQL foundation", () => {
  it("bootstraps project default with development and production", async () => {
    const res = await t.gql(
      `{ projects { id: databaseId name environments { name type } } environments { name type sortOrder } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      projects: [
        {
          id: "default",
          name: "Default",
          environments: [
            { name: "development", type: "development" },
            { name: "production", type: "production" },
          ],
        },
      ],
      environments: [
        { name: "development", type: "development", sortOrder: 100 },
        { name: "production", type: "production", sortOrder: 200 },
      ],
    });
  });

  it("creates a flag and its feature-created event in one transaction", async () => {
    const res = await t.gql(
      `mutation($input: CreateFeatureInput!) { createFeature(project: "default", input: $input) {
         name type project enabled archived createdBy { id name } lifecycle { stage }
         environments { name enabled type hasStrategies strategies { id: databaseId } } } }`,
      { input: { name: "new-checkout", description: "The new checkout" } },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.createFeature).toMatchObject({
      name: "new-checkout",
      type: "release",
      project: "default",
      enabled: false,
      archived: false,
      createdBy: { id: -42, name: "Admin API token" },
      lifecycle: { stage: "initial" },
      environments: [
        { name: "development", enabled: false, type: "development", hasStrategies: false, strategies: [] },
        { name: "production", enabled: false, type: "production", hasStrategies: false, strategies: [] },
      ],
    });
    const events = await t.gql<{ events: { edges: { node: Record<string, unknown> }[] } }>(
      `{ events(filter: { features: ["new-checkout"] }) { edges { node { type project featureName createdBy createdByUserId label data } } } }`,
    );
    expect(events.data?.events.edges.map((e) => e.node)).toEqual([
      expect.objectContaining({
        type: "feature-created",
        project: "default",
        featureName: "new-checkout",
        createdBy: "admin-token",
        createdByUserId: -42,
        label: "Flag created",
        data: expect.objectContaining({ name: "new-checkout", description: "The new checkout" }),
      }),
    ]);
  });

  it("refuses a taken name with NAME_EXISTS and writes nothing", async () => {
    const CREATE = `mutation { createFeature(project: "default", input: { name: "taken-name" }) { name } }`;
    expect((await t.gql(CREATE)).errors).toBeUndefined();
    const before = await t.database.prisma.event.count();
    const res = await t.gql(CREATE);
    expect(res.errors?.[0]?.extensions?.code).toBe("NAME_EXISTS");
    expect(await t.database.prisma.event.count()).toBe(before);
  });

  it("reports bad input as VALIDATION naming the field", async () => {
    const res = await t.gql(
      `mutation { createFeature(project: "default", input: { name: "not a url name" }) { name } }`,
    );
    expect(res.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    expect(res.errors?.[0]?.message).toMatch(/^name: /);
  });

  it("rejects requests without a valid token as UNAUTHENTICATED", async () => {
    for (const token of [null, "*:*.wrong"]) {
      const res = await t.gql(`{ projects { id } }`, undefined, token);
      expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      // Refused before parsing (issue 12 item 4): a request error, so no `data` at all.
      expect(res.data).toBeUndefined();
    }
  });

  it("accepts the token with a Bearer prefix", async () => {
    const res = await t.gql(
      `{ projects { id } }`,
      undefined,
      "Bearer *:*.test-admin-secret-0123456789abcdef",
    );
    expect(res.errors).toBeUndefined();
  });

  it("pages flags as a Relay connection with totalCount", async () => {
    type Page = {
      features: {
        totalCount: number;
        edges: { cursor: string; node: { name: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      };
    };
    const page = async (after?: string) =>
      (
        await t.gql<Page>(
          `query($after: String) { features(project: "default", first: 2, after: $after) {
            totalCount edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }`,
          { after },
        )
      ).data!.features;
    // Project default holds the other tests' flags too: counted before, as they are.
    const before = (await page()).totalCount;
    for (const name of ["page-a", "page-b", "page-c"]) {
      await t.gql(
        `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name } }`,
        { n: name },
      );
    }
    const first = await page();
    expect(first.totalCount).toBe(before + 3);
    expect(first.edges).toHaveLength(2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const names = first.edges.map((e) => e.node.name);
    let last = first;
    while (last.pageInfo.hasNextPage) {
      last = await page(last.pageInfo.endCursor);
      expect(last.edges.length).toBeGreaterThan(0);
      expect(last.edges.length).toBeLessThanOrEqual(2);
      names.push(...last.edges.map((e) => e.node.name));
    }
    expect(names).toHaveLength(before + 3);
    expect(new Set(names).size).toBe(before + 3);
    expect(names).toEqual(expect.arrayContaining(["page-a", "page-b", "page-c"]));
  });
});
