// The flag read model (src/modules/flag-record): one richly configured flag, made through the
// API, read as its FlagRecord; every other shape of the flag the API serves must carry the
// record's fields under the record's names. Expectations are the record spread, minus what a
// projection documents it leaves out: a field added to the record, or one a projection drops or
// renames, fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FlagRecord, flagRecordSchema } from "../../src/modules/flag-record/flag-record.logic.ts";
import { readFlagRecord } from "../../src/modules/flag-record/flag-record.read.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  addStrategy,
  apiToken,
  createFlag,
  createSegment,
  createTagType,
  enableFlag,
  eventsOf,
  gqlOk,
  soleVariant,
} from "../helpers/builders.ts";
import { FLAG_FIELDS, normalized } from "../time-travel/time-travel-helpers.ts";

const FLAG = "rich-flag";
let t: TestApp;
let record: FlagRecord;
const segmentNames = new Map<number, string>();

beforeAll(async () => {
  t = await createTestApp();
  await createTagType(t, "team", { color: "#00ff00" });
  const segment = await createSegment(t, "beta-testers", {
    constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
  });
  segmentNames.set(segment, "beta-testers");
  await createFlag(t, "rich-parent");
  await createFlag(t, FLAG, {
    type: "experiment",
    description: "every field set",
    impressionData: true,
    tags: [
      { type: "simple", value: "checkout" },
      { type: "team", value: "payments" },
    ],
  });
  await addStrategy(t, FLAG, {
    name: "flexibleRollout",
    title: "Beta testers",
    sortOrder: 1,
    parameters: { rollout: "50", stickiness: "userId", groupId: FLAG },
    constraints: [
      {
        contextName: "appName",
        operator: "IN",
        values: ["web", "ios"],
        caseInsensitive: true,
        inverted: true,
      },
      { contextName: "currentTime", operator: "DATE_AFTER", value: "2026-01-01T00:00:00.000Z" },
    ],
    segments: [segment],
    variants: [soleVariant("blue", { type: "string", value: "b" })],
  });
  await addStrategy(t, FLAG, { name: "default", title: "Everyone else", disabled: true, sortOrder: 2 });
  await addStrategy(
    t,
    FLAG,
    {
      name: "userWithId",
      parameters: { userIds: "7,8" },
      constraints: [{ contextName: "environment", operator: "NOT_IN", values: ["qa"] }],
    },
    "production",
  );
  await gqlOk(
    t,
    `mutation($v: [EnvironmentVariantInput!]!) {
      setFeatureVariantsInEnvironments(project: "default", feature: "${FLAG}", environments: ["development", "production"], variants: $v) { enabled } }`,
    {
      v: [
        {
          name: "red",
          weight: 500,
          weightType: "variable",
          stickiness: "userId",
          payload: { type: "json", value: '{"a":1}' },
          overrides: [{ contextName: "userId", values: ["42"] }],
        },
        { name: "green", weight: 500, weightType: "variable", stickiness: "default" },
      ],
    },
  );
  await addDependency(t, FLAG, "rich-parent", { enabled: true });
  await enableFlag(t, FLAG, "development");
  await gqlOk(
    t,
    `mutation { updateFeature(project: "default", name: "${FLAG}", input: { stale: true }) { name } }`,
  );
  await gqlOk(
    t,
    `mutation { updateFeature(project: "default", name: "${FLAG}", input: { description: "every field, set" }) { name } }`,
  );
  record = (await readFlagRecord(t.database.prisma, FLAG)) as FlagRecord;
});
afterAll(() => t.close());

/** The value without null fields, at every depth (GraphQL answers null for a field a record leaves out). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...value };
  for (const key of keys) delete copy[key];
  return copy;
}

const environment = (name: string) => record.environments.find((e) => e.name === name)!;

describe("the FlagRecord of a richly configured flag", () => {
  it("has the schema's shape, no field more or less, and every field set somewhere", () => {
    expect(flagRecordSchema.parse(record)).toEqual(record);
    const strategies = record.environments.flatMap((e) => e.strategies);
    expect(record.environments.map((e) => e.name)).toEqual(["development", "production"]);
    expect(strategies).toHaveLength(3);
    expect(strategies.some((s) => s.title && s.disabled)).toBe(true);
    expect(strategies.some((s) => s.segments.length && s.variants.length && s.constraints.length)).toBe(true);
    expect(strategies.some((s) => Object.keys(s.parameters).length > 0)).toBe(true);
    expect(record.environments.every((e) => e.variants.length === 2)).toBe(true);
    expect(record).toMatchObject({
      type: "experiment",
      description: "every field, set",
      stale: true,
      impressionData: true,
      dependencies: [{ feature: "rich-parent", enabled: true, variants: [] }],
      tags: [
        { type: "simple", value: "checkout" },
        { type: "team", value: "payments" },
      ],
    });
  });
});

describe("every projection of the flag agrees with its FlagRecord", () => {
  const FIELDS = `${FLAG_FIELDS} createdAt`;

  it("GraphQL Feature", async () => {
    const { feature } = await gqlOk(t, `{ feature(name: "${FLAG}") { ${FIELDS} } }`);
    expect(withoutNulls(normalized(feature))).toEqual(withoutNulls(record));
  });

  it("the past flag of time travel, now", async () => {
    const { featureAt } = await gqlOk(
      t,
      `query($at: DateTime!) {
      featureAt(name: "${FLAG}", at: $at) { exact state { ${FIELDS} } } }`,
      { at: new Date().toISOString() },
    );
    expect(featureAt.exact).toBe(true);
    expect(withoutNulls(normalized(featureAt.state))).toEqual(withoutNulls(record));
  });

  it("the search item", async () => {
    const { featureSearch } = await gqlOk(
      t,
      `{ featureSearch(filter: { query: "${FLAG}" }) { edges { node {
      name type description project stale impressionData archived dependencyType segments tags { type value }
      environments { name enabled variantCount hasStrategies hasEnabledStrategies } } } } }`,
    );
    const [item] = featureSearch.edges.map((e: { node: unknown }) => e.node);
    expect(item).toEqual({
      ...without(record, "createdAt", "environments", "dependencies"),
      dependencyType: "child",
      segments: record.environments.flatMap((e) =>
        e.strategies.flatMap((s) => s.segments.map((id) => segmentNames.get(id))),
      ),
      environments: record.environments.map((e) => ({
        name: e.name,
        enabled: e.enabled,
        variantCount: e.variants.length,
        hasStrategies: e.strategies.length > 0,
        hasEnabledStrategies: e.strategies.some((s) => !s.disabled),
      })),
    });
  });

  it("the SDK client-features document, in each environment", async () => {
    for (const name of ["development", "production"]) {
      const token = await apiToken(t, "client", name, ["*"], `read-model-${name}`);
      const res = await t.rest("GET", "/api/client/features", undefined, token);
      const entry = (res.body as { features: { name: string }[] }).features.find((f) => f.name === FLAG);
      const state = environment(name);
      const served = state.strategies.filter((s) => !s.disabled).map((s) => without(s, "disabled"));
      expect(entry).toEqual({
        ...without(record, "createdAt", "environments", "tags", "dependencies", "description", "archived"),
        enabled: state.enabled && served.length > 0,
        strategies: served,
        variants: state.variants,
        // A parent's variants only when it names some (Unleash's clientFeatureSchema).
        dependencies: record.dependencies.map((d) => (d.variants.length > 0 ? d : without(d, "variants"))),
      });
    }
  });

  it("the export document, in each environment", async () => {
    for (const name of ["development", "production"]) {
      const res = await t.rest("POST", "/api/admin/features-batch/export", {
        environment: name,
        features: [FLAG],
      });
      expect(res.status).toBe(200);
      const state = environment(name);
      expect(res.body).toMatchObject({
        features: [{ ...without(record, "createdAt", "environments", "tags", "dependencies") }],
        featureStrategies: state.strategies.map((s) => ({ ...s, featureName: FLAG })),
        featureEnvironments: [
          {
            name: FLAG,
            featureName: FLAG,
            environment: name,
            enabled: state.enabled,
            variants: state.variants,
          },
        ],
        featureTags: record.tags.map((tag) => ({
          featureName: FLAG,
          tagType: tag.type,
          tagValue: tag.value,
        })),
        dependencies: [{ feature: FLAG, dependencies: record.dependencies }],
      });
      expect((res.body as { features: object[] }).features[0]).toEqual(
        without(record, "createdAt", "environments", "tags", "dependencies"),
      );
    }
  });

  it("event payloads: the flag's fields, and each strategy as last recorded", async () => {
    const [updated] = (await eventsOf(t, ["feature-metadata-updated"]))
      .filter((e) => e.featureName === FLAG)
      .reverse();
    expect(updated?.data).toEqual(without(record, "environments", "tags", "dependencies"));
    const strategyEvents = (await eventsOf(t, ["feature-strategy-add", "feature-strategy-update"])).filter(
      (e) => e.featureName === FLAG,
    );
    for (const strategy of record.environments.flatMap((e) => e.strategies)) {
      const last = strategyEvents.filter((e) => e.data?.id === strategy.id).at(-1);
      expect(last?.data).toEqual(strategy);
    }
  });
});
