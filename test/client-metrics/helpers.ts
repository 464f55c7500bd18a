import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";

/** A client or frontend token's secret. */
export async function sdkToken(t: TestApp, type: string, environment: string, projects: string[]) {
  const res = await t.gql<{ createApiToken: { secret: string } }>(
    `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret } }`,
    { input: { tokenName: `${type}-${environment}-${projects.join("-")}`, type, environment, projects } },
  );
  expect(res.errors).toBeUndefined();
  return res.data?.createApiToken.secret as string;
}

export async function createFlags(t: TestApp, names: string[], project = "default") {
  for (const name of names) {
    const res = await t.gql(
      `mutation($p: String!, $n: String!) { createFeature(project: $p, input: { name: $n }) { name } }`,
      {
        p: project,
        n: name,
      },
    );
    expect(res.errors).toBeUndefined();
  }
}

/** unleash-client's metrics body for one bucket. */
export function sdkBucket(
  appName: string,
  instanceId: string,
  toggles: Record<string, { yes: number; no: number; variants?: Record<string, number> }>,
  start = new Date(),
) {
  return {
    appName,
    instanceId,
    connectionId: `${instanceId}-connection`,
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 60_000).toISOString(), toggles },
    platformName: "node",
    platformVersion: "20.20.0",
    yggdrasilVersion: null,
    specVersion: "5.2.2",
  };
}
