import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";

async function depend(child: string, parent: string) {
  const res = await t.rest("POST", `${P}/features/${child}/dependencies`, { feature: parent });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ["parent", "child2", "solo", "tagged"]) await createFlag(t, name);
  // On everywhere, so that reviving it must turn it off.
  await createFlag(t, "child1", { enabledIn: ["development", "production"] });
  await depend("child1", "parent");
  await depend("child2", "parent");
});
afterAll(() => t.close());

describe("archive validation (spec 4.12, reference §5)", () => {
  const validate = (features: string[]) => t.rest("POST", `${P}/archive/validate`, { features });

  it("answers the reference e2e example", async () => {
    const cases: [string[], string[]][] = [
      [["child1", "child2", "parent"], []],
      [["child1", "child2"], []],
      [["parent"], ["parent"]],
      [["child1", "parent"], ["parent"]],
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
      `{ archiveValidation(project: "default", features: ["parent"]) { parentsWithChildFeatures hasDeletedDependencies } }`,
    );
    expect(res.data).toEqual({
      archiveValidation: { parentsWithChildFeatures: ["parent"], hasDeletedDependencies: true },
    });
  });
});

describe("archive", () => {
  it("refuses to archive a parent with active children: 403 InvalidOperationError, nothing written", async () => {
    const { result, events } = await recorded(t, () => t.rest("DELETE", `${P}/features/parent`));
    expect(result).toMatchObject({ status: 403, body: { name: "InvalidOperationError" } });
    expect((result as { body: { message: string } }).body.message).toBe(
      "You can not archive/delete this feature since other features depend on it.",
    );
    expect(events).toEqual([]);
    const gql = await t.gql(
      `mutation { archiveFeatures(project: "default", names: ["parent", "child1"]) { name } }`,
    );
    expect(gqlCode(gql)).toBe("INVALID_OPERATION");
    const child1 = await t.rest("GET", `${P}/features/child1`);
    expect(child1.body).toMatchObject({ archived: false, dependencies: [{ feature: "parent" }] });
  });

  it("archives a child with 202: feature-archived, its links removed, lifecycle archived", async () => {
    const { result, brief } = await recorded(t, () => t.rest("DELETE", `${P}/features/child1`));
    expect((result as { status: number }).status).toBe(202);
    expect(brief).toEqual([
      { type: "feature-archived", featureName: "child1", data: null, preData: null },
      { type: "feature-dependencies-removed", featureName: "child1", data: null, preData: null },
    ]);
    // REST answers 404 for an archived flag (as Unleash); GraphQL still reads it.
    expect((await t.rest("GET", `${P}/features/child1`)).status).toBe(404);
    const res = await t.gql<{ projectFeature: Record<string, unknown> }>(
      `{ projectFeature(project: "default", name: "child1") { archived archivedAt dependencies { feature } lifecycle { stage } } }`,
    );
    expect(res.data?.projectFeature).toMatchObject({
      archived: true,
      dependencies: [],
      lifecycle: { stage: "archived" },
    });
    expect(res.data?.projectFeature.archivedAt).not.toBeNull();
    expect((await t.rest("GET", `${P}/features/parent`)).body.children).toEqual(["child2"]);
  });

  it("archives a parent together with its last child in one call", async () => {
    const { result, brief } = await recorded(t, () =>
      t.gql(
        `mutation { archiveFeatures(project: "default", names: ["parent", "child2"]) { name archived } }`,
      ),
    );
    expect(result).toEqual({
      data: {
        archiveFeatures: [
          { name: "child2", archived: true },
          { name: "parent", archived: true },
        ],
      },
    });
    expect(brief.map((e) => [e.type, e.featureName])).toEqual([
      ["feature-archived", "parent"],
      ["feature-archived", "child2"],
      ["feature-dependencies-removed", "child2"],
    ]);
  });

  it("refuses changes to an archived flag with 400 ArchivedFeatureError", async () => {
    const attempts = [
      t.rest("PUT", `${P}/features/child1`, { description: "x" }),
      t.rest("PATCH", `${P}/features/child1`, [{ op: "replace", path: "/stale", value: true }]),
      t.rest("POST", `${P}/stale`, { features: ["child1"], stale: true }),
      t.rest("DELETE", `${P}/features/child1`),
      t.rest("POST", `${P}/features/child1/dependencies`, { feature: "solo" }),
      t.rest("POST", `${P}/features/child1/favorites`),
      t.rest("POST", "/api/admin/features/child1/tags", { type: "simple", value: "x1" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body.name).toBe("ArchivedFeatureError");
    }
    const gql = await t.gql(
      `mutation { completeFeature(project: "default", name: "child1", status: kept) { name } }`,
    );
    expect(gqlCode(gql)).toBe("ARCHIVED");
  });
});

describe("revive and delete", () => {
  it("revives: off everywhere, lifecycle back to initial, feature-revived; not archived is left alone", async () => {
    const { result, brief } = await recorded(t, () =>
      t.rest("POST", `${P}/revive`, { features: ["child1", "solo"] }),
    );
    expect(result).toMatchObject({ status: 200, body: undefined });
    expect(brief).toEqual([{ type: "feature-revived", featureName: "child1", data: null, preData: null }]);
    const res = await t.rest("GET", `${P}/features/child1`);
    expect(res.body).toMatchObject({ archived: false, archivedAt: null, lifecycle: { stage: "initial" } });
    expect(res.body.environments.map((e: { enabled: boolean }) => e.enabled)).toEqual([false, false]);
  });

  it("revives over GraphQL, returning the revived flags", async () => {
    await t.rest("DELETE", `${P}/features/solo`);
    const { result, brief } = await recorded(t, () =>
      t.gql(
        `mutation { reviveFeatures(project: "default", names: ["solo"]) { name archived lifecycle { stage } } }`,
      ),
    );
    expect(result).toEqual({
      data: { reviveFeatures: [{ name: "solo", archived: false, lifecycle: { stage: "initial" } }] },
    });
    expect(brief.map((e) => e.type)).toEqual(["feature-revived"]);
  });

  it("404s for an unknown name and writes nothing", async () => {
    const { result, events } = await recorded(t, () =>
      t.rest("POST", `${P}/revive`, { features: ["child2", "ghost"] }),
    );
    expect((result as { status: number }).status).toBe(404);
    expect(events).toEqual([]);
  });

  it("deletes archived flags: feature-deleted with preData = record and tags = its tags; active ones skipped", async () => {
    await t.rest("POST", "/api/admin/features/tagged/tags", { type: "simple", value: "gone" });
    await t.rest("DELETE", `${P}/features/tagged`);
    const { result, events } = await recorded(t, () =>
      t.rest("POST", `${P}/delete`, { features: ["tagged", "solo"] }),
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
    expect((await t.rest("GET", `${P}/features/solo`)).status).toBe(200);
    const gql = await t.gql(`mutation { deleteFeatures(project: "default", names: ["child2"]) }`);
    expect(gql).toEqual({ data: { deleteFeatures: ["child2"] } });
  });
});
