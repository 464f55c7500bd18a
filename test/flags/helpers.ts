import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";

export type RecordedEvent = {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  createdBy: string;
  createdByUserId: number | null;
  data: unknown;
  preData: unknown;
  tags: { type: string; value: string }[];
};

/** The id of the newest event, to list what one action recorded with `eventsAfter`. */
export async function lastEventId(t: TestApp): Promise<number> {
  const res = await t.gql<{ events: { edges: { node: { databaseId: number } }[] } }>(
    `{ events(first: 1) { edges { node { databaseId } } } }`,
  );
  return res.data?.events.edges[0]?.node.databaseId ?? 0;
}

/** Events recorded after `id`, oldest first, through the public events query. */
export async function eventsAfter(t: TestApp, id: number): Promise<RecordedEvent[]> {
  const res = await t.gql<{ events: { edges: { node: RecordedEvent }[] } }>(
    `{ events(first: 1000) { edges { node {
        id: databaseId type project environment featureName createdBy createdByUserId data preData tags { type value } } } } }`,
  );
  expect(res.errors).toBeUndefined();
  return (res.data?.events.edges ?? [])
    .map((e) => e.node)
    .filter((e) => e.id > id)
    .reverse();
}

/** Runs `action` and returns what it recorded, as `{type, featureName, data, preData}` rows. */
export async function recorded(t: TestApp, action: () => Promise<unknown>) {
  const before = await lastEventId(t);
  const result = await action();
  const events = await eventsAfter(t, before);
  return {
    result,
    events,
    brief: events.map(({ type, featureName, data, preData }) => ({ type, featureName, data, preData })),
  };
}

export async function createFlag(
  t: TestApp,
  name: string,
  input: Record<string, unknown> = {},
  project = "default",
) {
  const res = await t.gql(
    `mutation($p: String!, $input: CreateFeatureInput!) { createFeature(project: $p, input: $input) { name } }`,
    { p: project, input: { name, ...input } },
  );
  expect(res.errors).toBeUndefined();
}

export async function seedTagType(t: TestApp, name: string) {
  await t.database.prisma.tagType.upsert({ where: { name }, create: { name }, update: {} });
}

export async function seedProject(t: TestApp, id: string) {
  await t.database.prisma.project.create({
    data: {
      id,
      name: id,
      environments: { create: [{ environmentName: "development" }, { environmentName: "production" }] },
    },
  });
}

export function gqlCode(res: { errors?: { extensions?: Record<string, unknown> }[] }) {
  return res.errors?.[0]?.extensions?.code;
}
