import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret } from "../../src/modules/access/credentials.write.ts";
import { propose } from "../change-requests/fixtures.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import {
  apiToken,
  configureChangeRequests,
  createFlag,
  createProject,
  createSegment,
  gqlOk,
  userWithPat,
} from "../helpers/builders.ts";

/*
 * Issue 15 point 5: every entity type implements the Relay `Node` interface with a global id,
 * `node(id:)`/`nodes(ids:)` read any of them back, under the same rule as the entity's own read.
 */
let t: TestApp;
let viewer: { id: number; token: string };
let changeRequestId: number;
const SCOPED_ADMIN = "default:*.scoped-admin-secret-0123456789";

const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;

beforeAll(async () => {
  t = await createTestApp();
  viewer = await userWithPat(t, "vic-viewer", "Viewer");
  await createProject(t, "other", { name: "Other" });
  await createFlag(t, "checkout", { strategies: [{ name: "default" }] });
  await createFlag(t, "elsewhere", { project: "other" });
  await createSegment(t, "beta", { constraints: [] });
  await gqlOk(
    t,
    `mutation { createAddon(input: { provider: "webhook", enabled: false, events: ["feature-created"],
      parameters: { url: "http://127.0.0.1:9/hook" } }) { databaseId } }`,
  );
  await apiToken(t, "client", "development", ["*"], "sdk");
  await configureChangeRequests(t, "production", 1);
  const proposed = await propose(t, "production", { action: "archiveFeature", feature: "checkout" });
  expect(proposed.status).toBe(200);
  changeRequestId = proposed.body.id;
  // Direct write: the API gives every admin token all projects (Unleash issues no project admin
  // tokens either), but a stored one limited to a project must stay in it.
  await t.database.prisma.apiToken.create({
    data: {
      tokenName: "scoped",
      type: "admin",
      environment: "*",
      projects: ["default"],
      displayPrefix: "default:*.",
      secretHash: hashSecret(SCOPED_ADMIN),
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe("global ids", () => {
  it("gives every entity type an id that node and nodes read back as the same entity", async () => {
    const data = await gqlOk(
      t,
      `{
      feature(name: "checkout") { id name environments { id name strategies { id databaseId } } }
      project(id: "default") { id databaseId }
      environment(name: "production") { id name }
      segments { id databaseId }
      users { id databaseId }
      apiTokens { id databaseId }
      personalAccessTokens { id }
      addons { id databaseId }
      events(first: 1) { edges { node { id databaseId } } }
      changeRequest(id: ${changeRequestId}) { id }
    }`,
    );
    const ids: Record<string, string> = {
      Feature: data.feature.id,
      FeatureEnvironment: data.feature.environments[0].id,
      Strategy: data.feature.environments[0].strategies[0].id,
      Project: data.project.id,
      Environment: data.environment.id,
      Segment: data.segments[0].id,
      User: data.users[0].id,
      ApiToken: data.apiTokens[0].id,
      Addon: data.addons[0].id,
      Event: data.events.edges[0].node.id,
      ChangeRequest: data.changeRequest.id,
    };
    // unique across types and opaque (not the database id)
    expect(new Set(Object.values(ids)).size).toBe(Object.keys(ids).length);
    expect(ids.Project).not.toBe("default");
    for (const [typename, id] of Object.entries(ids)) {
      expect((await gqlOk(t, NODE, { id })).node).toEqual({ __typename: typename, id });
    }
    const many = await gqlOk(t, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, {
      ids: [ids.Feature, ids.Project],
    });
    expect(many.nodes).toEqual([
      { __typename: "Feature", id: ids.Feature },
      { __typename: "Project", id: ids.Project },
    ]);
    const flag = await gqlOk(
      t,
      `query($id: ID!) { node(id: $id) { ... on FeatureEnvironment { featureName name enabled } } }`,
      { id: ids.FeatureEnvironment },
    );
    expect(flag.node).toMatchObject({ featureName: "checkout", name: "development" });
  });

  it("answers null for an entity that does not exist, and a typed error for an id it never issued", async () => {
    const gone = Buffer.from("Feature:no-such-flag").toString("base64");
    expect((await gqlOk(t, NODE, { id: gone })).node).toBeNull();
    for (const id of [
      "not base64 at all!",
      Buffer.from("PageInfo:1").toString("base64"),
      Buffer.from("User:abc").toString("base64"),
    ]) {
      const res = await t.gql(NODE, { id });
      expect(res.errors?.[0]?.extensions?.code).toBe("VALIDATION");
    }
  });
});

describe("each entity's own key (README: `databaseId`, or `name` where the name is the key)", () => {
  // The types keyed by something else, and the fields holding it; every other Node has databaseId.
  const NAMED_KEYS: Record<string, string[]> = {
    Feature: ["name"],
    Environment: ["name"],
    FeatureEnvironment: ["featureName", "name"],
  };

  it("every Node type exposes databaseId, or is keyed by the name fields listed here", async () => {
    const data = await gqlOk<{
      __schema: {
        types: { name: string; interfaces: { name: string }[] | null; fields: { name: string }[] | null }[];
      };
    }>(t, "{ __schema { types { name interfaces { name } fields { name } } } }");
    const nodes = data.__schema.types.filter((type) => type.interfaces?.some((i) => i.name === "Node"));
    expect(nodes.length).toBeGreaterThan(10);
    const problems = nodes.flatMap((type) => {
      const fields = new Set(type.fields?.map((f) => f.name));
      const keys = NAMED_KEYS[type.name] ?? ["databaseId"];
      if (NAMED_KEYS[type.name] && fields.has("databaseId"))
        return [`${type.name}: databaseId and a named key`];
      return keys.filter((key) => !fields.has(key)).map((key) => `${type.name}: no ${key}`);
    });
    expect(problems).toEqual([]);
  });
});

describe("node respects each entity's read rule", () => {
  it("refuses a Viewer the users and tokens that user(id:) and apiTokens refuse them", async () => {
    const { users, apiTokens } = await gqlOk(t, `{ users { id } apiTokens { id } }`);
    for (const id of [users[0].id, apiTokens[0].id]) {
      const res = await t.gql(NODE, { id }, viewer.token);
      expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    }
    const direct = await t.gql(`{ user(id: ${viewer.id}) { name } }`, undefined, viewer.token);
    expect(direct.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("shows a personal access token only to its owner", async () => {
    const own = await gqlOk(t, `{ personalAccessTokens { id } }`, undefined, viewer.token);
    const id = own.personalAccessTokens[0].id;
    expect((await gqlOk(t, NODE, { id }, viewer.token)).node).toEqual({
      __typename: "PersonalAccessToken",
      id,
    });
    expect((await gqlOk(t, NODE, { id }, ADMIN_TOKEN)).node).toBeNull();
  });

  it("hides the events a caller may not read: another project's from a project token, no-project ones from a Viewer", async () => {
    const all = await gqlOk(t, `{ events(first: 1000) { edges { node { id project type } } } }`);
    const nodes = all.events.edges.map(
      (e: { node: { id: string; project: string | null; type: string } }) => e.node,
    );
    const other = nodes.find((e: { project: string | null }) => e.project === "other");
    const none = nodes.find((e: { project: string | null }) => e.project === null);
    expect(other && none).toBeTruthy();
    expect((await gqlOk(t, NODE, { id: none.id }, viewer.token)).node).toBeNull();
    expect((await gqlOk(t, NODE, { id: other.id }, viewer.token)).node).toEqual({
      __typename: "Event",
      id: other.id,
    });
    expect((await gqlOk(t, NODE, { id: other.id }, SCOPED_ADMIN)).node).toBeNull();
  });
});
