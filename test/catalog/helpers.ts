import type { TestApp } from "../helpers/app.ts";

export type RecordedEvent = {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  createdBy: string;
  data: unknown;
  preData: unknown;
  label: string | null;
  summary: string | null;
};

/** The events of the given types, oldest first. */
export async function eventsOf(t: TestApp, types: string[]): Promise<RecordedEvent[]> {
  const res = await t.gql<{ events: { edges: { node: RecordedEvent }[] } }>(
    `query($types: [String!]) { events(filter: { types: $types }, first: 1000) { edges { node {
       id type project environment featureName createdBy data preData label summary } } } }`,
    { types },
  );
  if (res.errors) throw new Error(res.errors[0]?.message);
  return (res.data?.events.edges ?? []).map((e) => e.node).reverse();
}

/** Runs a GraphQL operation that must succeed, returning its data. */
export async function ok<T = Record<string, any>>(
  t: TestApp,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const res = await t.gql<T>(query, variables);
  if (res.errors) throw new Error(`unexpected GraphQL error: ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

/** Runs a GraphQL operation that must fail, returning its first error's code and message. */
export async function fails(t: TestApp, query: string, variables?: Record<string, unknown>) {
  const res = await t.gql(query, variables);
  const error = res.errors?.[0];
  if (!error) throw new Error(`expected a GraphQL error, got ${JSON.stringify(res.data)}`);
  return { code: error.extensions?.code as string | undefined, message: error.message };
}
