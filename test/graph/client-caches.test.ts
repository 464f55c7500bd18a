import { ApolloClient, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { Client, fetchExchange } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlags } from "../helpers/builders.ts";

/*
 * Issue 15 point 5: the two common client caches, with their default configuration (no
 * typePolicies, keys or updaters), see a mutation's result in a query they ran before,
 * because every entity has a global `id`. Over HTTP, as a browser app would call Vexil.
 */
let t: TestApp;
let server: RunningServer;

const FLAG = gql`
  query Flag($name: String!) {
    feature(name: $name) { id name enabled environments { id name enabled } }
  }
`;
const ENABLE = gql`
  mutation Enable($feature: String!) {
    enableFeatureEnvironment(project: "default", feature: $feature, environment: "production") {
      id enabled environments { id enabled }
    }
  }
`;
const PROJECTS = gql`
  query Projects { projects { id name } }
`;
const RENAME = gql`
  mutation Rename($name: String!) { updateProject(id: "default", input: { name: $name }) { id name } }
`;

type FlagData = { feature: { enabled: boolean; environments: { name: string; enabled: boolean }[] } };
type ProjectsData = { projects: { id: string; name: string }[] };

const production = (data: FlagData | null | undefined) =>
  data?.feature.environments.find((e) => e.name === "production")?.enabled;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app, "127.0.0.1", 0);
  await createFlags(t, ["apollo-flag", "urql-flag"]);
});

afterAll(async () => {
  await server?.close(0);
  await t?.close();
});

describe("Apollo Client's InMemoryCache (no typePolicies)", () => {
  const client = () =>
    new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql`, headers: { authorization: ADMIN_TOKEN } }),
      cache: new InMemoryCache(),
    });

  it("shows a flag enabled after enableFeatureEnvironment, in the query it ran before", async () => {
    const apollo = client();
    const before = await apollo.query<FlagData>({ query: FLAG, variables: { name: "apollo-flag" } });
    expect(production(before.data)).toBe(false);
    await apollo.mutate({ mutation: ENABLE, variables: { feature: "apollo-flag" } });
    const cached = apollo.readQuery<FlagData>({ query: FLAG, variables: { name: "apollo-flag" } });
    expect(cached?.feature.enabled).toBe(true);
    expect(production(cached)).toBe(true);
  });

  it("renames a project in a list it read before", async () => {
    const apollo = client();
    await apollo.query<ProjectsData>({ query: PROJECTS });
    await apollo.mutate({ mutation: RENAME, variables: { name: "Renamed by Apollo" } });
    const cached = apollo.readQuery<ProjectsData>({ query: PROJECTS });
    expect(cached?.projects.map((p) => p.name)).toEqual(["Renamed by Apollo"]);
  });
});

describe("urql's graphcache (no keys, no updates)", () => {
  const client = () =>
    new Client({
      url: `${server.url}/graphql`,
      fetchOptions: { headers: { authorization: ADMIN_TOKEN } },
      exchanges: [cacheExchange({}), fetchExchange],
    });

  it("shows a flag enabled after enableFeatureEnvironment, in the query it ran before", async () => {
    const urql = client();
    const before = await urql.query<FlagData>(FLAG, { name: "urql-flag" }).toPromise();
    expect(before.error).toBeUndefined();
    expect(production(before.data)).toBe(false);
    const enabled = await urql.mutation(ENABLE, { feature: "urql-flag" }).toPromise();
    expect(enabled.error).toBeUndefined();
    const cached = await urql
      .query<FlagData>(FLAG, { name: "urql-flag" }, { requestPolicy: "cache-only" })
      .toPromise();
    expect(cached.data?.feature.enabled).toBe(true);
    expect(production(cached.data)).toBe(true);
  });

  it("renames a project in a list it read before", async () => {
    const urql = client();
    await urql.query<ProjectsData>(PROJECTS, {}).toPromise();
    await urql.mutation(RENAME, { name: "Renamed by urql" }).toPromise();
    const cached = await urql.query<ProjectsData>(PROJECTS, {}, { requestPolicy: "cache-only" }).toPromise();
    expect(cached.data?.projects.map((p) => p.name)).toEqual(["Renamed by urql"]);
  });
});
