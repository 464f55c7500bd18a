import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, createProject } from "../helpers/builders.ts";
import { expectNoServerError, type Res, storedEvents, times } from "../helpers/concurrency.ts";

/**
 * The write families added after writes.test.ts under concurrency: flag links, project context
 * fields, the API token expiry, the stored CORS origins and adding an environment to a project
 * with its options. On PostgreSQL (TEST_DATABASE_URL) the requests really overlap at READ
 * COMMITTED; PGlite runs one transaction at a time, so there these only check the answers.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const id of ["north", "south"]) await createProject(t, id);
});
afterAll(() => t.close());

/** A key of an event's data or preData (JSON), undefined when absent. */
const field = (json: unknown, key: string) => (json as Record<string, unknown> | null | undefined)?.[key];

const statuses = (results: Res[]) => results.map((r) => r.status).sort();

/** Each change's preData is what the one before it wrote: no write was lost or applied twice. */
function expectChained(log: { data: unknown; preData: unknown }[], pick: (d: unknown) => unknown) {
  for (let i = 1; i < log.length; i++) {
    expect(pick(log[i]?.preData), `event ${i} of ${log.length}`).toEqual(pick(log[i - 1]?.data));
  }
}

const linkPath = (flag: string, id?: string) =>
  `/api/admin/projects/default/features/${flag}/link${id ? `/${id}` : ""}`;
const linksOf = (featureName: string) =>
  t.database.prisma.featureLink.findMany({ where: { featureName }, orderBy: { createdAt: "asc" } });

describe("flag links", () => {
  it("20 concurrent additions to a flag stop at 10 links, one event each", async () => {
    await createFlag(t, "linked");
    const results = await times(20, (i) =>
      t.rest("POST", linkPath("linked"), { url: `example.com/more/${i}` }),
    );
    expectNoServerError(results);
    expect(results.filter((r) => r.status === 204)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 204)) {
      expect(r).toMatchObject({ status: 403, body: { name: "InvalidOperationError" } });
    }
    expect(await linksOf("linked")).toHaveLength(10);
    expect(await storedEvents(t, "feature-link-added", { featureName: "linked" })).toHaveLength(10);
  });

  it("10 different concurrent updates of one link: all applied in turn, each event's preData the one before", async () => {
    await createFlag(t, "relinked");
    expect((await t.rest("POST", linkPath("relinked"), { url: "example.com/0" })).status).toBe(204);
    const [link] = await linksOf("relinked");
    const results = await times(10, (i) =>
      t.rest("PUT", linkPath("relinked", link?.id), { url: `example.com/v${i}`, title: `v${i}` }),
    );
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 204)).toBe(true);
    const log = await storedEvents(t, "feature-link-updated", { featureName: "relinked" });
    expect(log).toHaveLength(10);
    expectChained(log, (d) => field(d, "url"));
    const [stored] = await linksOf("relinked");
    expect(stored?.url).toBe(field(log.at(-1)?.data, "url"));
  });

  it("10 identical concurrent updates of one link record one change", async () => {
    await createFlag(t, "same-link");
    expect((await t.rest("POST", linkPath("same-link"), { url: "example.com/a" })).status).toBe(204);
    const [link] = await linksOf("same-link");
    const results = await times(10, () =>
      t.rest("PUT", linkPath("same-link", link?.id), { url: "example.com/b", title: "b" }),
    );
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 204)).toBe(true);
    expect(await storedEvents(t, "feature-link-updated", { featureName: "same-link" })).toHaveLength(1);
  });

  it("updates racing a delete of the same link: the delete wins once, later updates are 404, events match", async () => {
    await createFlag(t, "unlinked");
    expect((await t.rest("POST", linkPath("unlinked"), { url: "example.com/x" })).status).toBe(204);
    const [link] = await linksOf("unlinked");
    const path = linkPath("unlinked", link?.id);
    const results = await times(12, (i) =>
      i % 4 === 0 ? t.rest("DELETE", path) : t.rest("PUT", path, { url: `example.com/u${i}` }),
    );
    expectNoServerError(results);
    expect(results.every((r) => r.status === 204 || r.status === 404)).toBe(true);
    const deletes = results.filter((_, i) => i % 4 === 0);
    const updates = results.filter((_, i) => i % 4 !== 0);
    expect(deletes.filter((r) => r.status === 204)).toHaveLength(1);
    expect(await linksOf("unlinked")).toHaveLength(0);
    const updated = await storedEvents(t, "feature-link-updated", { featureName: "unlinked" });
    expect(updated).toHaveLength(updates.filter((r) => r.status === 204).length);
    const [removed, ...more] = await storedEvents(t, "feature-link-removed", { featureName: "unlinked" });
    expect(more).toHaveLength(0);
    // The delete removed what the last applied update wrote (or the original link).
    expect(field(removed?.preData, "url")).toBe(
      field(updated.at(-1)?.data, "url") ?? "https://example.com/x",
    );
    expect(removed?.id).toBeGreaterThan(updated.at(-1)?.id ?? 0);
  });
});

describe("context fields: one name across root and project fields", () => {
  it("10 concurrent creations of one name as a root field and in two projects: one field, clean 409s", async () => {
    const paths = [
      "/api/admin/context",
      "/api/admin/projects/north/context",
      "/api/admin/projects/south/context",
    ];
    const results = await times(12, (i) => t.rest("POST", paths[i % 3] as string, { name: "tenant" }));
    expectNoServerError(results);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r).toMatchObject({ status: 409, body: { name: "NameExistsError" } });
    }
    expect(await t.database.prisma.contextField.count({ where: { name: "tenant" } })).toBe(1);
    expect(
      await storedEvents(t, "context-field-created", { data: { path: ["name"], equals: "tenant" } }),
    ).toHaveLength(1);
  });

  it("10 concurrent creations of one name in two projects: one field, clean 409s", async () => {
    const results = await times(10, (i) =>
      t.rest("POST", `/api/admin/projects/${i % 2 === 0 ? "north" : "south"}/context`, { name: "shard" }),
    );
    expectNoServerError(results);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
    expect(
      await storedEvents(t, "context-field-created", { data: { path: ["name"], equals: "shard" } }),
    ).toHaveLength(1);
  });
});

describe("API token expiry", () => {
  async function createToken(tokenName: string) {
    const res = await t.rest("POST", "/api/admin/api-tokens", { tokenName, type: "admin" });
    expect(res.status).toBe(201);
    const row = await t.database.prisma.apiToken.findFirstOrThrow({ where: { tokenName } });
    return { secret: res.body.secret as string, id: row.id };
  }
  const expiry = (i: number) => ({ expiresAt: new Date(Date.UTC(2099, 0, 1 + i)).toISOString() });
  const tokenEvents = async (type: string, tokenName: string) =>
    (await storedEvents(t, type)).filter(
      (e) => ((e.data ?? e.preData) as { tokenName?: string } | null)?.tokenName === tokenName,
    );

  it("10 different concurrent expiry updates: each applied in turn, each event's preData the one before", async () => {
    const { secret } = await createToken("busy");
    const results = await times(10, (i) => t.rest("PUT", `/api/admin/api-tokens/${secret}`, expiry(i)));
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 200)).toBe(true);
    const log = await tokenEvents("api-token-updated", "busy");
    expect(log).toHaveLength(10);
    expectChained(log, (d) => field(d, "expiresAt"));
  });

  it("10 identical concurrent expiry updates record one change", async () => {
    const { secret } = await createToken("steady");
    const results = await times(10, () => t.rest("PUT", `/api/admin/api-tokens/${secret}`, expiry(5)));
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 200)).toBe(true);
    expect(await tokenEvents("api-token-updated", "steady")).toHaveLength(1);
  });

  it("expiry updates racing the token's deletion: 200s, one deletion, the deleted token as last updated", async () => {
    const { secret, id } = await createToken("doomed");
    const results = await times(12, (i) =>
      i === 3
        ? t.rest("DELETE", `/api/admin/api-tokens/${id}`)
        : t.rest("PUT", `/api/admin/api-tokens/${secret}`, expiry(i)),
    );
    expectNoServerError(results);
    // Unleash answers 200 for a secret no token has: so does an update that comes after the delete.
    expect(statuses(results).every((s) => s === 200)).toBe(true);
    expect(await t.database.prisma.apiToken.count({ where: { id } })).toBe(0);
    const updated = await tokenEvents("api-token-updated", "doomed");
    expectChained(updated, (d) => field(d, "expiresAt"));
    const deleted = await tokenEvents("api-token-deleted", "doomed");
    expect(deleted).toHaveLength(1);
    expect(field(deleted[0]?.preData, "expiresAt")).toEqual(field(updated.at(-1)?.data, "expiresAt") ?? null);
    expect(deleted[0]?.id).toBeGreaterThan(updated.at(-1)?.id ?? 0);
  });
});

describe("CORS origins (setting unleash.frontend)", () => {
  const corsEvents = async () =>
    (
      await t.database.prisma.event.findMany({
        where: { type: { in: ["setting-created", "setting-updated"] } },
        orderBy: { id: "asc" },
      })
    ).filter((e) => (e.data as { id?: string } | null)?.id === "unleash.frontend");

  it("10 different concurrent first settings: one created, the rest updated in turn, the last one stored", async () => {
    const results = await times(10, (i) =>
      t.rest("POST", "/api/admin/ui-config/cors", { frontendApiOrigins: [`https://shop-${i}.example.com`] }),
    );
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 204)).toBe(true);
    const log = await corsEvents();
    expect(log.map((e) => e.type)).toEqual(["setting-created", ...Array(9).fill("setting-updated")]);
    expectChained(log, (d) => field(d, "frontendApiOrigins"));
    const stored = await t.database.prisma.setting.findUniqueOrThrow({ where: { name: "unleash.frontend" } });
    expect((stored.content as { frontendApiOrigins: string[] }).frontendApiOrigins).toEqual(
      field(log.at(-1)?.data, "frontendApiOrigins"),
    );
  });

  it("10 identical concurrent settings record one change", async () => {
    const before = (await corsEvents()).length;
    const results = await times(10, () =>
      t.rest("POST", "/api/admin/ui-config/cors", { frontendApiOrigins: ["https://one.example.com"] }),
    );
    expectNoServerError(results);
    expect(statuses(results).every((s) => s === 204)).toBe(true);
    expect(await corsEvents()).toHaveLength(before + 1);
  });
});

describe("maintenance mode (setting maintenance.mode, stored as the CORS origins are)", () => {
  it("10 concurrent first 'on' then 10 concurrent 'off': one setting-created, one setting-updated", async () => {
    const log = async () =>
      (
        await t.database.prisma.event.findMany({
          where: { type: { in: ["setting-created", "setting-updated"] } },
          orderBy: { id: "asc" },
        })
      ).filter((e) => (e.data as { id?: string } | null)?.id === "maintenance.mode");
    const on = await times(10, () => t.rest("POST", "/api/admin/maintenance", { enabled: true }));
    expectNoServerError(on);
    expect(statuses(on).every((s) => s === 204)).toBe(true);
    expect((await log()).map((e) => e.type)).toEqual(["setting-created"]);
    const off = await times(10, () => t.rest("POST", "/api/admin/maintenance", { enabled: false }));
    expectNoServerError(off);
    expect(statuses(off).every((s) => s === 204)).toBe(true);
    expect((await log()).map((e) => e.type)).toEqual(["setting-created", "setting-updated"]);
    expect((await t.rest("GET", "/api/admin/maintenance")).body).toEqual({ enabled: false });
  });
});

describe("adding an environment to a project with its options", () => {
  it("10 identical concurrent additions: one 200, 409s, one of each row and event", async () => {
    expect((await t.rest("POST", "/api/admin/environments", { name: "racing", type: "test" })).status).toBe(
      201,
    );
    await createFlag(t, "present");
    const body = {
      environment: "racing",
      defaultStrategy: { name: "flexibleRollout", parameters: { rollout: "40", stickiness: "default" } },
      changeRequestsEnabled: true,
    };
    const results = await times(10, () => t.rest("POST", "/api/admin/projects/default/environments", body));
    expectNoServerError(results);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r).toMatchObject({ status: 409, body: { name: "NameExistsError" } });
    }
    const here = { projectId: "default", environmentName: "racing" };
    expect(await t.database.prisma.projectEnvironment.count({ where: here })).toBe(1);
    expect(await t.database.prisma.changeRequestSetting.count({ where: here })).toBe(1);
    expect(
      await t.database.prisma.featureEnvironment.count({
        where: { featureName: "present", environmentName: "racing" },
      }),
    ).toBe(1);
    for (const type of [
      "project-environment-added",
      "default-strategy-updated",
      "change-request-configuration-updated",
    ]) {
      expect(await storedEvents(t, type, { project: "default", environment: "racing" }), type).toHaveLength(
        1,
      );
    }
  });

  it("removing a project's two environments at once: one removed, the last one kept", async () => {
    const linked = () => t.database.prisma.projectEnvironment.count({ where: { projectId: "south" } });
    expect(await linked()).toBe(2);
    const results = await Promise.all(
      ["development", "production"].map((env) =>
        t.rest("DELETE", `/api/admin/projects/south/environments/${env}`),
      ),
    );
    expectNoServerError(results);
    expect(results.filter((r) => r.status < 300)).toHaveLength(1);
    expect(results.filter((r) => r.status >= 300).map((r) => r.body.name)).toEqual(["InvalidOperationError"]);
    expect(await linked()).toBe(1);
    expect(await storedEvents(t, "project-environment-removed", { project: "south" })).toHaveLength(1);
  });
});
