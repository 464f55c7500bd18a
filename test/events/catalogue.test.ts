import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_CATALOGUE, EVENT_TYPES } from "../../src/events/catalogue.ts";
import { type EventInput, recordEvent } from "../../src/events/record.ts";
import { payloadProblems, typedPayloads } from "../../src/events/stored-payloads.ts";
import type { Write } from "../../src/shared/write.ts";
import { createTestApp, eventPayloadProblems, flagCreatedEvent, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  // The test of the harness's check leaves an event outside the catalogue on purpose.
  await t.database.prisma.event.deleteMany({ where: { type: "feature-archived", featureName: "bent" } });
  await t.close();
});

/**
 * Payloads of the wrong shape. Each line is refused by the compiler (`npm run typecheck` checks
 * the `@ts-expect-error`s); the test refuses the same payloads with the catalogue's schemas.
 */
function wrongEvents(): unknown[] {
  const wrong = (input: unknown) => input;
  const compileTimeOnly = (w: Write) => [
    // @ts-expect-error feature-created carries the flag as data, not a part of it
    recordEvent(w, { type: "feature-created", data: { name: "x" } }),
    // @ts-expect-error feature-archived carries no payload
    recordEvent(w, { type: "feature-archived", data: { name: "x" } }),
    // @ts-expect-error a tag has a value
    recordEvent(w, { type: "feature-untagged", preData: { type: "simple" } }),
    // @ts-expect-error feature-strategy-update needs the strategy before
    recordEvent(w, { type: "feature-strategy-update", data: strategy }),
    // @ts-expect-error not an event type
    recordEvent(w, { type: "feature-exploded" }),
  ];
  void compileTimeOnly;
  return [
    wrong({ type: "feature-created", data: { name: "x" } }),
    wrong({ type: "feature-archived", data: { name: "x" } }),
    wrong({ type: "feature-untagged", preData: { type: "simple" } }),
    wrong({ type: "feature-strategy-update", data: strategy }),
    wrong({ type: "feature-exploded" }),
  ];
}

const strategy = {
  id: "s1",
  name: "default",
  title: null,
  disabled: false,
  sortOrder: 0,
  parameters: {},
  constraints: [],
  variants: [],
  segments: [],
};

const stored = (input: unknown) => {
  const { type, data = null, preData = null } = input as { type: string; data?: unknown; preData?: unknown };
  return { type, data, preData };
};

describe("the event catalogue (src/events/catalogue.ts)", () => {
  it("lists every event type of spec section 6 once; a type without words has no payload either", () => {
    // Spec section 6 (149) and the release-plan types of issue 41 (16).
    expect(EVENT_TYPES).toHaveLength(165);
    expect(new Set(EVENT_TYPES).size).toBe(165);
    const unrecorded = EVENT_TYPES.filter((type) => EVENT_CATALOGUE[type].label === null);
    for (const type of unrecorded.filter((type) => EVENT_CATALOGUE[type].summary !== null)) {
      throw new Error(`${type} has a summary but no label`);
    }
    expect(EVENT_CATALOGUE["feature-updated"].data.safeParse(undefined).success).toBe(true);
    expect(EVENT_CATALOGUE["feature-updated"].data.safeParse({}).success).toBe(false);
  });

  it("refuses, as the compiler does, payloads of another shape", () => {
    for (const input of wrongEvents()) {
      expect(payloadProblems(stored(input)), JSON.stringify(input)).not.toEqual([]);
      expect(typedPayloads(stored(input))).toBeNull();
    }
  });

  it("accepts the payload the catalogue gives a type, and names the field it does not describe", () => {
    const created: EventInput<"feature-created"> = flagCreatedEvent("f");
    expect(payloadProblems(stored(created))).toEqual([]);
    expect(typedPayloads(stored(created))).toEqual({
      type: "feature-created",
      data: created.data,
      preData: null,
    });
    const extra = {
      ...created,
      data: { ...created.data, secret: "s", tags: [{ type: "t", value: "v", x: 1 }] },
    };
    expect(payloadProblems(stored(extra)).map((p) => p.path)).toEqual(["data.secret", "data.tags"]);
    const nested = {
      type: "feature-strategy-add",
      data: { ...strategy, constraints: [{ contextName: "a", operator: "IN", colour: "red" }] },
    };
    expect(payloadProblems(stored(nested))).toEqual([
      { path: "data.constraints.0.colour", message: "is not in the schema of feature-strategy-add" },
    ]);
  });

  it("reads null as no payload, and as a null one where the schema allows it", () => {
    const { id: _id, ...content } = strategy;
    const first = { type: "default-strategy-updated", data: content, preData: null };
    expect(typedPayloads(first)).toEqual({ type: "default-strategy-updated", data: content, preData: null });
    expect(payloadProblems({ type: "feature-archived", data: null, preData: null })).toEqual([]);
  });
});

describe("the test harness checks the events every test records against the catalogue", () => {
  it("finds an event of the recorder's whose payload its type does not describe (a row stored otherwise is not)", async () => {
    await createFlag(t, "bent");
    expect(await eventPayloadProblems(t.database)).toEqual([]);
    await t.database.prisma.$executeRaw`
      INSERT INTO "Event" ("type", "createdBy", "featureName", "data", "summary")
      VALUES ('feature-archived', 'test', 'bent', '{"archived": true}'::jsonb, '**test** archived bent'),
             ('feature-archived', 'test', 'bent', '{"archived": true}'::jsonb, NULL)`;
    expect(await eventPayloadProblems(t.database)).toEqual([
      expect.stringMatching(
        /^event \d+ \(feature-archived\): data does not match the schema of feature-archived$/,
      ),
    ]);
  });
});
