import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";
import { STRATEGY } from "../helpers/builders.ts";

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
