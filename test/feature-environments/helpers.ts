import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";

export type EventRow = {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  data: Record<string, any> | null;
  preData: Record<string, any> | null;
  groupId: string | null;
  label: string | null;
  summary: string | null;
};

/** Id of the newest event (0 when none), to look at what an action records afterwards. */
export async function lastEventId(t: TestApp): Promise<number> {
  const res = await t.gql<{ events: { edges: { node: { databaseId: number } }[] } }>(
    `{ events(first: 1) { edges { node { databaseId } } } }`,
  );
  return res.data?.events.edges[0]?.node.databaseId ?? 0;
}

/** Events recorded after `mark`, oldest first. */
export async function eventsAfter(t: TestApp, mark: number): Promise<EventRow[]> {
  const res = await t.gql<{ events: { edges: { node: EventRow }[] } }>(
    `{ events(first: 1000) { edges { node { id: databaseId type project environment featureName data preData groupId label summary } } } }`,
  );
  expect(res.errors).toBeUndefined();
  return (res.data?.events.edges ?? [])
    .map((e) => e.node)
    .filter((e) => e.id > mark)
    .reverse();
}

export async function createFlag(t: TestApp, name: string, project = "default") {
  const res = await t.gql(
    `mutation($p: String!, $n: String!) { createFeature(project: $p, input: { name: $n }) { name } }`,
    {
      p: project,
      n: name,
    },
  );
  expect(res.errors).toBeUndefined();
}

export const STRATEGY = `id: databaseId name title disabled sortOrder segments parameters
  constraints { contextName operator caseInsensitive inverted values value }
  variants { name weight weightType stickiness payload { type value } }`;

/** Adds a strategy over GraphQL and returns it (fails the test on errors). */
export async function addStrategy(
  t: TestApp,
  feature: string,
  input: Record<string, unknown>,
  environment = "development",
  project = "default",
) {
  const res = await t.gql<{ addFeatureStrategy: Record<string, any> }>(
    `mutation($p: String!, $f: String!, $e: String!, $i: StrategyInput!) {
      addFeatureStrategy(project: $p, feature: $f, environment: $e, input: $i) { ${STRATEGY} } }`,
    { p: project, f: feature, e: environment, i: input },
  );
  expect(res.errors).toBeUndefined();
  return res.data?.addFeatureStrategy as Record<string, any>;
}

/** Runs addFeatureStrategy and returns the first error (code and message), or null. */
export async function addStrategyError(
  t: TestApp,
  feature: string,
  input: Record<string, unknown>,
  environment = "development",
) {
  const res = await t.gql(
    `mutation($f: String!, $e: String!, $i: StrategyInput!) {
      addFeatureStrategy(project: "default", feature: $f, environment: $e, input: $i) { id } }`,
    { f: feature, e: environment, i: input },
  );
  const error = res.errors?.[0];
  return error ? { code: error.extensions?.code, message: error.message } : null;
}

export async function environmentState(t: TestApp, feature: string, environment = "development") {
  const res = await t.gql<{ feature: { environments: Record<string, any>[] } }>(
    `query($f: String!) { feature(name: $f) { environments { name enabled hasStrategies hasEnabledStrategies
      strategies { ${STRATEGY} } variants { name weight weightType stickiness payload { type value } overrides { contextName values } } } } }`,
    { f: feature },
  );
  expect(res.errors).toBeUndefined();
  return res.data?.feature.environments.find((e) => e.name === environment) as Record<string, any>;
}

/** Seeds a user with a root role and returns a personal access token for it. */
export async function userToken(t: TestApp, username: string, rootRole: "Editor" | "Viewer") {
  const { hashSecret } = await import("../../src/modules/access/credentials.write.ts");
  const user = await t.database.prisma.user.create({ data: { username, rootRole } });
  const secret = `user:${username}-secret-0123456789abcdef0123456789`;
  await t.database.prisma.personalAccessToken.create({
    data: {
      userId: user.id,
      description: "test",
      secretHash: hashSecret(secret),
      expiresAt: new Date("2100-01-01T00:00:00Z"),
    },
  });
  return secret;
}

/** Seeds a project with the given environments (no GraphQL for projects in this slice). */
export async function seedProject(t: TestApp, id: string, environments = ["development", "production"]) {
  await t.database.prisma.project.create({
    data: {
      id,
      name: id,
      environments: { create: environments.map((environmentName) => ({ environmentName })) },
    },
  });
}
