import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";

async function depend(child: string, parent: string) {
  const res = await t.rest("POST", `${P}/features/${child}/dependencies`, { feature: parent });
  expect(res.status).toBe(200);
}

/**
 * `${prefix}-parent` with two children, `-child1` (on everywhere, so that reviving it must turn
 * it off) and `-child2`; returns their names. The validation tests read the family "v".
 */
async function family(prefix: string) {
  const names = { parent: `${prefix}-parent`, child1: `${prefix}-child1`, child2: `${prefix}-child2` };
  for (const name of [names.parent, names.child2]) await createFlag(t, name);
  await createFlag(t, names.child1, { enabledIn: ["development", "production"] });
  await depend(names.child1, names.parent);
  await depend(names.child2, names.parent);
  return names;
}

/** A flag of a test's own, archived. */
async function archivedFlag(name: string, options: Parameters<typeof createFlag>[2] = {}) {
  await createFlag(t, name, options);
  expect((await t.rest("DELETE", `${P}/features/${name}`)).status).toBe(202);
}

beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "solo");
  await family("v");
});
afterAll(() => t.close());

describe("archive validation (spec 4.12, reference §5)", () => {
  const validate = (features: string[]) => t.rest("POST", `${P}/archive/validate`, { features });

  it("answers the reference e2e example", async () => {
    const cases: [string[], string[]][] = [
      [["v-child1", "v-child2", "v-parent"], []],
      [["v-child1", "v-child2"], []],
      [["v-parent"], ["v-parent"]],
      [["v-child1", "v-parent"], ["v-parent"]],
    ];
    for (const [features, parents] of cases) {
      const res = await validate(features);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ parentsWithChildFeatures: parents, hasDeletedDependencies: true });
    }
  });

  it("ignores unknown names and reports no links for unrelated flags", async () => {
    expect((await validate(["solo", "ghost"])).body).toEqual({
      parentsWithChildFeatures: [],
      hasDeletedDependencies: false,
    });
  });

  it("rejects a body without features as 400", async () => {
    const res = await t.rest("POST", `${P}/archive/validate`, {});
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/features/);
  });

  it("is the same over GraphQL", async () => {
    const res = await t.gql(
      `{ archiveValidation(project: "default", features: ["v-parent"]) { parentsWithChildFeatures hasDeletedDependencies } }`,
    );
    expect(res.data).toEqual({
      archiveValidation: { parentsWithChildFeatures: ["v-parent"], hasDeletedDependencies: true },
    });
  });
});

describe("archive", () => {
  it("refuses to archive a parent with active children: 403 InvalidOperationError, nothing written", async () => {
    const { parent, child1 } = await family("refused");
    const { result, events } = await recorded(t, () => t.rest("DELETE", `${P}/features/${parent}`));
    expect(result).toMatchObject({ status: 403, body: { name: "InvalidOperationError" } });
    expect((result as { body: { message: string } }).body.message).toBe(
      "You can not archive/delete this feature since other features depend on it.",
    );
    expect(events).toEqual([]);
    const gql = await t.gql(
      `mutation($n: [String!]!) { archiveFeatures(project: "default", names: $n) { name } }`,
      {
        n: [parent, child1],
      },
    );
    expect(gqlCode(gql)).toBe("INVALID_OPERATION");
    const child = await t.rest("GET", `${P}/features/${child1}`);
    expect(child.body).toMatchObject({ archived: false, dependencies: [{ feature: parent }] });
  });

  it("archives a child with 202: feature-archived, its links removed, lifecycle archived", async () => {
    const { parent, child1, child2 } = await family("archived");
    const { result, brief } = await recorded(t, () => t.rest("DELETE", `${P}/features/${child1}`));
    expect((result as { status: number }).status).toBe(202);
    expect(brief).toEqual([
      { type: "feature-archived", featureName: child1, data: null, preData: null },
      { type: "feature-dependencies-removed", featureName: child1, data: null, preData: null },
    ]);
    // REST answers 404 for an archived flag (as Unleash); GraphQL still reads it.
    expect((await t.rest("GET", `${P}/features/${child1}`)).status).toBe(404);
    const res = await t.gql<{ projectFeature: Record<string, unknown> }>(
      `query($n: String!) { projectFeature(project: "default", name: $n) { archived archivedAt dependencies { feature } lifecycle { stage } } }`,
      { n: child1 },
    );
    expect(res.data?.projectFeature).toMatchObject({
      archived: true,
      dependencies: [],
      lifecycle: { stage: "archived" },
    });
    expect(res.data?.projectFeature.archivedAt).not.toBeNull();
    expect((await t.rest("GET", `${P}/features/${parent}`)).body.children).toEqual([child2]);
  });

  it("archives a parent together with its last child in one call", async () => {
    const { parent, child1, child2 } = await family("last");
    expect((await t.rest("DELETE", `${P}/features/${child1}`)).status).toBe(202);
    const { result, brief } = await recorded(t, () =>
      t.gql(`mutation($n: [String!]!) { archiveFeatures(project: "default", names: $n) { name archived } }`, {
        n: [parent, child2],
      }),
    );
    expect(result).toEqual({
      data: {
        archiveFeatures: [
          { name: child2, archived: true },
          { name: parent, archived: true },
        ],
      },
    });
    expect(brief.map((e) => [e.type, e.featureName])).toEqual([
      ["feature-archived", parent],
      ["feature-archived", child2],
      ["feature-dependencies-removed", child2],
    ]);
  });

  it("refuses changes to an archived flag with 400 ArchivedFeatureError", async () => {
    await archivedFlag("frozen");
    const attempts = [
      t.rest("PUT", `${P}/features/frozen`, { description: "x" }),
      t.rest("PATCH", `${P}/features/frozen`, [{ op: "replace", path: "/stale", value: true }]),
      t.rest("POST", `${P}/stale`, { features: ["frozen"], stale: true }),
      t.rest("DELETE", `${P}/features/frozen`),
      t.rest("POST", `${P}/features/frozen/dependencies`, { feature: "solo" }),
      t.rest("POST", `${P}/features/frozen/favorites`),
      t.rest("POST", "/api/admin/features/frozen/tags", { type: "simple", value: "x1" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body.name).toBe("ArchivedFeatureError");
    }
    const gql = await t.gql(
      `mutation { completeFeature(project: "default", name: "frozen", status: kept) { name } }`,
    );
    expect(gqlCode(gql)).toBe("ARCHIVED");
  });
});

describe("revive and delete", () => {
  it("revives: off everywhere, lifecycle back to initial, feature-revived; not archived is left alone", async () => {
    await archivedFlag("revived", { enabledIn: ["development", "production"] });
    await createFlag(t, "revive-active");
    const { result, brief } = await recorded(t, () =>
      t.rest("POST", `${P}/revive`, { features: ["revived", "revive-active"] }),
    );
    expect(result).toMatchObject({ status: 200, body: undefined });
    expect(brief).toEqual([{ type: "feature-revived", featureName: "revived", data: null, preData: null }]);
    const res = await t.rest("GET", `${P}/features/revived`);
    expect(res.body).toMatchObject({ archived: false, archivedAt: null, lifecycle: { stage: "initial" } });
    expect(res.body.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
  });

  it("revives over GraphQL, returning the revived flags", async () => {
    await archivedFlag("revived-by-gql");
    const { result, brief } = await recorded(t, () =>
      t.gql(
        `mutation { reviveFeatures(project: "default", names: ["revived-by-gql"]) { name archived lifecycle { stage } } }`,
      ),
    );
    expect(result).toEqual({
      data: {
        reviveFeatures: [{ name: "revived-by-gql", archived: false, lifecycle: { stage: "initial" } }],
      },
    });
    expect(brief.map((e) => e.type)).toEqual(["feature-revived"]);
  });

  it("404s for an unknown name and writes nothing", async () => {
    await archivedFlag("revive-refused");
    const { result, events } = await recorded(t, () =>
      t.rest("POST", `${P}/revive`, { features: ["revive-refused", "ghost"] }),
    );
    expect((result as { status: number }).status).toBe(404);
    expect(events).toEqual([]);
  });

  it("deletes archived flags: feature-deleted with preData = record and tags = its tags; active ones skipped", async () => {
    await createFlag(t, "tagged");
    await createFlag(t, "delete-active");
    await t.rest("POST", "/api/admin/features/tagged/tags", { type: "simple", value: "gone" });
    await t.rest("DELETE", `${P}/features/tagged`);
    const { result, events } = await recorded(t, () =>
      t.rest("POST", `${P}/delete`, { features: ["tagged", "delete-active"] }),
    );
    expect((result as { status: number }).status).toBe(200);
    expect(events).toEqual([
      expect.objectContaining({
        type: "feature-deleted",
        featureName: "tagged",
        project: "default",
        data: null,
        preData: expect.objectContaining({ name: "tagged", project: "default", archived: true }),
        tags: [{ type: "simple", value: "gone" }],
      }),
    ]);
    expect((await t.rest("GET", `${P}/features/tagged`)).status).toBe(404);
    expect((await t.rest("GET", `${P}/features/delete-active`)).status).toBe(200);
    await archivedFlag("deleted-by-gql");
    const gql = await t.gql(`mutation { deleteFeatures(project: "default", names: ["deleted-by-gql"]) }`);
    expect(gql).toEqual({ data: { deleteFeatures: ["deleted-by-gql"] } });
  });
});
