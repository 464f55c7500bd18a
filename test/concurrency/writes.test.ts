import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableChange, propose, setState } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { configureChangeRequests, createFlag } from "../helpers/builders.ts";
import {
  expectNoServerError,
  type Res,
  storedEvents,
  times,
  untilWaitingOnLock,
} from "../helpers/concurrency.ts";

/**
 * Every write family under concurrency. On PostgreSQL (TEST_DATABASE_URL, as CI's second pass)
 * the requests really overlap at READ COMMITTED; PGlite runs one transaction at a time, so
 * there these only check that the answers stay the same.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Exactly one request created it; the others were told it exists (409), nothing else. */
function expectOneCreated(results: Res[], created = 201) {
  expectNoServerError(results);
  const statuses = results.map((r) => r.status).sort();
  expect(statuses.filter((s) => s === created)).toHaveLength(1);
  expect(statuses.filter((s) => s !== created).every((s) => s === 409)).toBe(true);
  for (const r of results.filter((r) => r.status === 409)) {
    expect(r.body).toMatchObject({ name: "NameExistsError" });
  }
}

const flagPath = (flag: string, env = "development") =>
  `/api/admin/projects/default/features/${flag}/environments/${env}`;

describe("a flag's state in an environment", () => {
  it("50 concurrent 'on' add one default strategy and record one enabled event", async () => {
    await createFlag(t, "hot-toggle");
    expectNoServerError(await times(50, () => t.rest("POST", `${flagPath("hot-toggle")}/on`)));
    const strategies = await t.database.prisma.featureStrategy.count({
      where: { featureName: "hot-toggle", environmentName: "development" },
    });
    expect(strategies).toBe(1);
    expect(await storedEvents(t, "feature-environment-enabled", { featureName: "hot-toggle" })).toHaveLength(
      1,
    );
    expect(await storedEvents(t, "feature-strategy-add", { featureName: "hot-toggle" })).toHaveLength(1);
  });

  it("mixed on/off: enabled and disabled events alternate, and the last one is the state", async () => {
    await createFlag(t, "flapping");
    expectNoServerError(
      await times(40, (i) => t.rest("POST", `${flagPath("flapping")}/${i % 2 === 0 ? "on" : "off"}`)),
    );
    const log = await t.database.prisma.event.findMany({
      where: {
        featureName: "flapping",
        type: { in: ["feature-environment-enabled", "feature-environment-disabled"] },
      },
      orderBy: { id: "asc" },
    });
    for (let i = 1; i < log.length; i++) expect(log[i]?.type).not.toBe(log[i - 1]?.type);
    const state = await t.database.prisma.featureEnvironment.findUniqueOrThrow({
      where: { featureName_environmentName: { featureName: "flapping", environmentName: "development" } },
    });
    expect(state.enabled).toBe(log.at(-1)?.type === "feature-environment-enabled");
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "a toggle that changes nothing answers while a writer holds the flag's lock, and records nothing",
    async () => {
      await createFlag(t, "held");
      const eventsBefore = await t.database.prisma.event.count({ where: { featureName: "held" } });
      // A writer of the flag holds its row; a repeated "off" needs no lock, so it answers meanwhile
      // (with the lock it would wait for this transaction, which waits for it: the timeout fails it).
      const answer = await t.database.prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM "Feature" WHERE name = 'held' FOR NO KEY UPDATE`;
          return t.rest("POST", `${flagPath("held")}/off`);
        },
        { timeout: 15_000 },
      );
      expect(answer).toMatchObject({ status: 200, body: { name: "held" } });
      expect(await t.database.prisma.event.count({ where: { featureName: "held" } })).toBe(eventsBefore);
    },
  );

  // The unlocked check sees the flag as it was; the toggle then waits for the writer holding the
  // flag, which switches it the same way and commits: the toggle must see that and record nothing.
  for (const [state, before] of [
    ["off", true],
    ["on", false],
  ] as const) {
    it.runIf(process.env.TEST_DATABASE_URL)(
      `"${state}" waiting for a writer that switched the flag ${state} meanwhile records nothing`,
      async () => {
        const flag = `overtaken-${state}`;
        await createFlag(t, flag);
        const strategy = { name: "default", parameters: {} };
        expect((await t.rest("POST", `${flagPath(flag)}/strategies`, strategy)).status).toBe(200);
        expect((await t.rest("POST", `${flagPath(flag)}/${before ? "on" : "off"}`)).status).toBe(200);
        const eventsBefore = await t.database.prisma.event.count({ where: { featureName: flag } });
        const pool = t.database.pool!;
        const writer = await pool.connect();
        try {
          // Direct write: an API call's transaction cannot be held open while the toggle waits on it.
          await writer.query("BEGIN");
          await writer.query(`SELECT 1 FROM "Feature" WHERE name = $1 FOR NO KEY UPDATE`, [flag]);
          await writer.query(
            `UPDATE "FeatureEnvironment" SET enabled = $2 WHERE "featureName" = $1 AND "environmentName" = 'development'`,
            [flag, !before],
          );
          const toggle = t.rest("POST", `${flagPath(flag)}/${state}`);
          await untilWaitingOnLock(pool, toggle, "%FOR NO KEY UPDATE%");
          await writer.query("COMMIT");
          const answer = await toggle;
          expect(answer.status).toBe(200);
          const development = answer.body.environments.find(
            (e: { name: string }) => e.name === "development",
          );
          expect(development.enabled).toBe(!before);
          expect(await t.database.prisma.event.count({ where: { featureName: flag } })).toBe(eventsBefore);
        } finally {
          writer.release();
        }
      },
    );
  }

  it("the strategy limit holds against 40 concurrent additions", async () => {
    await createFlag(t, "crowded");
    const strategy = { name: "flexibleRollout", parameters: { rollout: "50", stickiness: "default" } };
    const results = await times(40, () => t.rest("POST", `${flagPath("crowded")}/strategies`, strategy));
    expectNoServerError(results);
    const limit = t.config.limits.featureEnvironmentStrategies;
    expect(results.filter((r) => r.status === 200)).toHaveLength(limit);
    expect(
      await t.database.prisma.featureStrategy.count({
        where: { featureName: "crowded", environmentName: "development" },
      }),
    ).toBe(limit);
  });

  it("the same variants set 10 times at once record one change", async () => {
    await createFlag(t, "varied");
    const variants = [{ name: "a", weight: 1000, weightType: "variable", stickiness: "default" }];
    const results = await times(10, () =>
      t.rest(
        "PUT",
        `${flagPath("varied")}/variants`,
        variants.map((v) => ({ ...v })),
      ),
    );
    expectNoServerError(results);
    expect(
      await storedEvents(t, "feature-environment-variants-updated", { featureName: "varied" }),
    ).toHaveLength(1);
  });
});

describe("flags as a whole", () => {
  it("10 creations of one name: one flag, one event", async () => {
    expectOneCreated(
      await times(10, () => t.rest("POST", "/api/admin/projects/default/features", { name: "twin" })),
    );
    expect(await storedEvents(t, "feature-created", { featureName: "twin" })).toHaveLength(1);
  });

  it("a new tag added to two flags by 20 requests at once: one tag-created, one feature-tagged per flag", async () => {
    await createFlag(t, "tagged-a");
    await createFlag(t, "tagged-b");
    expect((await t.rest("POST", "/api/admin/tag-types", { name: "squad" })).status).toBe(201);
    const results = await times(20, (i) =>
      t.rest("POST", `/api/admin/features/tagged-${i % 2 === 0 ? "a" : "b"}/tags`, {
        type: "squad",
        value: "payments",
      }),
    );
    expectNoServerError(results);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(
      await storedEvents(t, "tag-created", { data: { equals: { type: "squad", value: "payments" } } }),
    ).toHaveLength(1);
    expect(await storedEvents(t, "feature-tagged", { featureName: "tagged-a" })).toHaveLength(1);
    expect(await storedEvents(t, "feature-tagged", { featureName: "tagged-b" })).toHaveLength(1);
  });

  it("stale, archive and revive each change once under 10 concurrent requests", async () => {
    await createFlag(t, "aging");
    const stale = await times(10, () =>
      t.rest("POST", "/api/admin/projects/default/stale", { features: ["aging"], stale: true }),
    );
    expectNoServerError(stale);
    expect(await storedEvents(t, "feature-stale-on", { featureName: "aging" })).toHaveLength(1);
    const archived = await times(10, () => t.rest("DELETE", "/api/admin/projects/default/features/aging"));
    expectNoServerError(archived);
    expect(archived.filter((r) => r.status === 202)).toHaveLength(1);
    expect(await storedEvents(t, "feature-archived", { featureName: "aging" })).toHaveLength(1);
    const revived = await times(10, () =>
      t.rest("POST", "/api/admin/projects/default/revive", { features: ["aging"] }),
    );
    expectNoServerError(revived);
    expect(await storedEvents(t, "feature-revived", { featureName: "aging" })).toHaveLength(1);
  });

  it("two opposite dependencies added at once: one wins, the other is refused as a cycle", async () => {
    await createFlag(t, "chicken");
    await createFlag(t, "egg");
    const [a, b] = await Promise.all([
      t.rest("POST", "/api/admin/projects/default/features/chicken/dependencies", { feature: "egg" }),
      t.rest("POST", "/api/admin/projects/default/features/egg/dependencies", { feature: "chicken" }),
    ]);
    expectNoServerError([a as Res, b as Res]);
    expect([a?.status, b?.status].sort()).toEqual([200, 403]);
    expect(
      await t.database.prisma.featureDependency.count({ where: { childName: { in: ["chicken", "egg"] } } }),
    ).toBe(1);
  });

  it("favouriting a flag 10 times at once is one favourite", async () => {
    await createFlag(t, "loved");
    const results = await times(10, () =>
      t.rest("POST", "/api/admin/projects/default/features/loved/favorites"),
    );
    expectNoServerError(results);
    expect(await storedEvents(t, "feature-favorited", { featureName: "loved" })).toHaveLength(1);
  });
});

describe("the catalogue: one name, one row, one event", () => {
  const creations: [string, string, unknown, string][] = [
    ["project", "/api/admin/projects", { id: "racing", name: "Racing" }, "project-created"],
    ["tag type", "/api/admin/tag-types", { name: "racing" }, "tag-type-created"],
    ["segment", "/api/admin/segments", { name: "racing", constraints: [] }, "segment-created"],
    ["context field", "/api/admin/context", { name: "racing" }, "context-field-created"],
    ["environment", "/api/admin/environments", { name: "racing", type: "test" }, "environment-created"],
    ["role", "/api/admin/roles", { name: "Racing", permissions: [] }, "role-created"],
    ["user", "/api/admin/user-admin", { email: "racer@example.com", rootRole: "Viewer" }, "user-created"],
  ];
  for (const [what, path, body, eventType] of creations) {
    it(`10 concurrent creations of one ${what}`, async () => {
      const before = (await storedEvents(t, eventType)).length;
      const results = await times(10, () => t.rest("POST", path, body));
      expectNoServerError(results);
      const ok = results.filter((r) => r.status < 300);
      expect(ok).toHaveLength(1);
      expect(results.filter((r) => r.status >= 300).every((r) => r.status === 409)).toBe(true);
      expect(await storedEvents(t, eventType)).toHaveLength(before + 1);
    });
  }

  /** A segment, context field, tag type and project named `name`, made one at a time; the segment's id. */
  async function catalogueRows(name: string) {
    for (const [path, body] of [
      ["/api/admin/tag-types", { name }],
      ["/api/admin/context", { name }],
      ["/api/admin/projects", { id: name, name }],
    ] as const) {
      expect((await t.rest("POST", path, body)).status).toBe(201);
    }
    const segment = await t.rest("POST", "/api/admin/segments", { name, constraints: [] });
    expect(segment.status).toBe(201);
    return segment.body.id as number;
  }

  it("10 identical concurrent updates of one segment, context field, tag type and project record one event each", async () => {
    const segment = await catalogueRows("updating");
    const updates: [string, string, unknown, string][] = [
      [
        "PUT",
        `/api/admin/segments/${segment}`,
        { name: "updating", description: "fast", constraints: [] },
        "segment-updated",
      ],
      ["PUT", "/api/admin/context/updating", { description: "fast" }, "context-field-updated"],
      ["PUT", "/api/admin/tag-types/updating", { description: "fast" }, "tag-type-updated"],
      ["PUT", "/api/admin/projects/updating", { name: "Updating fast" }, "project-updated"],
    ];
    for (const [method, path, body, eventType] of updates) {
      const before = (await storedEvents(t, eventType)).length;
      const results = await times(10, () => t.rest(method, path, body));
      expectNoServerError(results);
      expect(
        results.every((r) => r.status < 300),
        `${path}: ${JSON.stringify(results.map((r) => r.status))}`,
      ).toBe(true);
      expect(await storedEvents(t, eventType), eventType).toHaveLength(before + 1);
    }
  });

  it("10 concurrent deletions of one row: one deletes, the others find nothing", async () => {
    await catalogueRows("deleting");
    const deletions: [string, string][] = [
      ["/api/admin/tag-types/deleting", "tag-type-deleted"],
      ["/api/admin/context/deleting", "context-field-deleted"],
    ];
    for (const [path, eventType] of deletions) {
      const before = (await storedEvents(t, eventType)).length;
      const results = await times(10, () => t.rest("DELETE", path));
      expectNoServerError(results);
      expect(results.filter((r) => r.status < 300)).toHaveLength(1);
      expect(results.filter((r) => r.status >= 300).every((r) => r.status === 404)).toBe(true);
      expect(await storedEvents(t, eventType)).toHaveLength(before + 1);
    }
  });
});

describe("change requests", () => {
  it("five concurrent applies of one approved request apply it once", async () => {
    await createFlag(t, "reviewed-race");
    await configureChangeRequests(t, "production", 0);
    const draft = await propose(t, "production", enableChange("reviewed-race"));
    const id = draft.body.id as number;
    expect((await setState(t, id, { state: "In review" })).body.state).toBe("Approved");
    const applies = await times(5, () => setState(t, id, { state: "Applied" }));
    expectNoServerError(applies);
    expect(applies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await storedEvents(t, "change-request-applied")).toHaveLength(1);
    expect(
      await storedEvents(t, "feature-environment-enabled", { featureName: "reviewed-race" }),
    ).toHaveLength(1);
  });
});

describe("a 500 means not applied", () => {
  it("a live listener failing after commit does not turn the committed write into an error", async () => {
    const stop = t.deps.bus.listen(() => {
      throw new Error("listener broke");
    });
    try {
      const res = await t.rest("POST", "/api/admin/projects/default/features", { name: "committed-anyway" });
      expect(res.status).toBe(201);
    } finally {
      stop();
    }
    expect(await storedEvents(t, "feature-created", { featureName: "committed-anyway" })).toHaveLength(1);
  });
});
