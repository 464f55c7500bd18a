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
    const before = await t.database.prisma.event.count();
    const res = await t.gql(
      `mutation { createFeature(project: "default", input: { name: "new-checkout" }) { name } }`,
    );
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
    for (const name of ["page-a", "page-b", "page-c"]) {
      await t.gql(
        `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name } }`,
        { n: name },
      );
    }
    const first = await t.gql<{
      features: {
        totalCount: number;
        edges: { cursor: string; node: { name: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      };
    }>(
      `{ features(project: "default", first: 2) { totalCount edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(first.data?.features.totalCount).toBe(4);
    expect(first.data?.features.edges).toHaveLength(2);
    expect(first.data?.features.pageInfo.hasNextPage).toBe(true);
    const rest = await t.gql<{
      features: { edges: { node: { name: string } }[]; pageInfo: { hasNextPage: boolean } };
    }>(
      `query($after: String) { features(project: "default", first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage } } }`,
      { after: first.data?.features.pageInfo.endCursor },
    );
    const names = [...(first.data?.features.edges ?? []), ...(rest.data?.features.edges ?? [])].map(
      (e) => e.node.name,
    );
    expect(new Set(names).size).toBe(4);
    expect(rest.data?.features.pageInfo.hasNextPage).toBe(false);
  });
});
