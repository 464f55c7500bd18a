import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, createProject, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
const P = "/api/admin/projects/default";
const ADD = `mutation($feature: String!, $input: AddDependencyInput!) {
  addFeatureDependency(project: "default", feature: $feature, input: $input) { name dependencies { feature enabled variants } } }`;

beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "old");
  await createProject(t, "other");
  await createFlag(t, "foreign", { project: "other" });
  await t.rest("DELETE", `${P}/features/old`);
});
afterAll(() => t.close());

/** Plain flags of one test's own, named `${prefix}-${name}`; returns the names by short name. */
async function flagsOf<K extends string>(prefix: string, names: K[]): Promise<Record<K, string>> {
  const made = {} as Record<K, string>;
  for (const name of names) {
    made[name] = `${prefix}-${name}`;
    await createFlag(t, made[name]);
  }
  return made;
}

/** Makes `child` depend on `parent`, which must succeed. */
async function link(child: string, parent: string) {
  expect((await t.gql(ADD, { feature: child, input: { feature: parent } })).errors).toBeUndefined();
}

describe("dependencies over GraphQL", () => {
  it("adds a dependency with variants: feature-dependency-added {feature, enabled, variants}", async () => {
    const { a, b } = await flagsOf("added", ["a", "b"]);
    const { result, brief } = await recorded(t, () =>
      t.gql(ADD, { feature: b, input: { feature: a, variants: ["blue"] } }),
    );
    expect(result).toEqual({
      data: {
        addFeatureDependency: {
          name: b,
          dependencies: [{ feature: a, enabled: true, variants: ["blue"] }],
        },
      },
    });
    expect(brief).toEqual([
      {
        type: "feature-dependency-added",
        featureName: b,
        data: { feature: a, enabled: true, variants: ["blue"] },
        preData: null,
      },
    ]);
  });

  it("re-adding the same link records nothing; changing it records again (variants dropped when disabled)", async () => {
    const { a, b } = await flagsOf("readded", ["a", "b"]);
    await t.gql(ADD, { feature: b, input: { feature: a, variants: ["blue"] } });
    const same = await recorded(t, () =>
      t.gql(ADD, { feature: b, input: { feature: a, variants: ["blue"] } }),
    );
    expect(same.events).toEqual([]);
    const changed = await recorded(t, () =>
      t.gql(ADD, { feature: b, input: { feature: a, enabled: false, variants: ["blue"] } }),
    );
    expect(changed.brief).toEqual([
      {
        type: "feature-dependency-added",
        featureName: b,
        data: { feature: a, enabled: false },
        preData: null,
      },
    ]);
  });

  it("refuses a cycle, itself, another project's parent and an archived parent; nothing written", async () => {
    const { a, b, c } = await flagsOf("refused", ["a", "b", "c"]);
    await link(b, a);
    await link(c, b);
    const { result, events } = await recorded(t, async () => [
      await t.gql(ADD, { feature: a, input: { feature: c } }),
      await t.gql(ADD, { feature: a, input: { feature: a } }),
      await t.gql(ADD, { feature: a, input: { feature: "foreign" } }),
      await t.gql(ADD, { feature: a, input: { feature: "old" } }),
    ]);
    const [cycle, self, foreign, archived] = result as {
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    }[];
    expect(gqlCode(cycle as never)).toBe("INVALID_OPERATION");
    expect(cycle?.errors?.[0]?.message).toMatch(/cycle/);
    expect(gqlCode(self as never)).toBe("INVALID_OPERATION");
    expect(gqlCode(foreign as never)).toBe("INVALID_OPERATION");
    expect(foreign?.errors?.[0]?.message).toMatch(/same project/);
    expect(gqlCode(archived as never)).toBe("INVALID_OPERATION");
    expect(events).toEqual([]);
    expect(gqlCode(await t.gql(ADD, { feature: a, input: { feature: "ghost" } }))).toBe("NOT_FOUND");
  });

  it("shows children and dependencies on the Feature", async () => {
    const { a, b, c } = await flagsOf("shown", ["a", "b", "c"]);
    await link(b, a);
    await link(c, b);
    const res = await t.gql(
      `query($a: String!, $b: String!) { a: feature(name: $a) { children } b: feature(name: $b) { children dependencies { feature } } }`,
      { a, b },
    );
    expect(res.data).toEqual({
      a: { children: [b] },
      b: { children: [c], dependencies: [{ feature: a }] },
    });
  });
});

describe("dependencies over REST", () => {
  it("POST adds (200, no body), 400 naming a missing parent, 404 for an unknown child", async () => {
    const { a, c, d } = await flagsOf("posted", ["a", "c", "d"]);
    const { result, brief } = await recorded(t, () =>
      t.rest("POST", `${P}/features/${d}/dependencies`, { feature: a, enabled: true }),
    );
    expect(result).toMatchObject({ status: 200, body: undefined });
    expect(brief).toEqual([
      {
        type: "feature-dependency-added",
        featureName: d,
        data: { feature: a, enabled: true },
        preData: null,
      },
    ]);
    await t.rest("POST", `${P}/features/${d}/dependencies`, { feature: c });
    const missing = await t.rest("POST", `${P}/features/${d}/dependencies`, { enabled: true });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/feature/);
    expect((await t.rest("POST", `${P}/features/ghost/dependencies`, { feature: a })).status).toBe(404);
    const cycle = await t.rest("POST", `${P}/features/${a}/dependencies`, { feature: d });
    expect(cycle).toMatchObject({ status: 403, body: { name: "InvalidOperationError" } });
  });

  it("DELETE with a parent removes one link; unknown link records nothing", async () => {
    const { a, c, d } = await flagsOf("unlinked", ["a", "c", "d"]);
    await link(d, a);
    await link(d, c);
    const { result, brief } = await recorded(t, () =>
      t.rest("DELETE", `${P}/features/${d}/dependencies/${a}`),
    );
    expect((result as { status: number }).status).toBe(200);
    expect(brief).toEqual([
      { type: "feature-dependency-removed", featureName: d, data: { feature: a }, preData: null },
    ]);
    const again = await recorded(t, () => t.rest("DELETE", `${P}/features/${d}/dependencies/${a}`));
    expect(again.events).toEqual([]);
  });

  it("DELETE without a parent removes all: one feature-dependencies-removed, none when there are none", async () => {
    const { a, c, d } = await flagsOf("cleared", ["a", "c", "d"]);
    await link(d, a);
    await link(d, c);
    const { brief } = await recorded(t, () => t.rest("DELETE", `${P}/features/${d}/dependencies`));
    expect(brief).toEqual([
      { type: "feature-dependencies-removed", featureName: d, data: null, preData: null },
    ]);
    const none = await recorded(t, () => t.rest("DELETE", `${P}/features/${d}/dependencies`));
    expect(none.events).toEqual([]);
    expect((await t.rest("GET", `${P}/features/${d}`)).body.dependencies).toEqual([]);
  });
});
