import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, createProject, gqlCode, recorded } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UPDATE = `mutation($name: String!, $input: UpdateFeatureInput!) {
  updateFeature(project: "default", name: $name, input: $input) { name description type impressionData stale } }`;

/** A flag of the test's own, described "first" unless given. */
async function metaFlag(name: string, options: Parameters<typeof createFlag>[2] = {}) {
  await createFlag(t, name, { description: "first", ...options });
  return name;
}

/** A flag of the test's own made over REST: "via rest", operational. */
async function restFlag(name: string) {
  const created = await t.rest("POST", "/api/admin/projects/default/features", {
    name,
    description: "via rest",
    type: "operational",
  });
  expect(created.status).toBe(201);
  return `/api/admin/projects/default/features/${name}`;
}

function record(name: string, over: Record<string, unknown>) {
  return expect.objectContaining({
    name,
    project: "default",
    type: "release",
    description: "first",
    stale: false,
    impressionData: false,
    archived: false,
    ...over,
  });
}

describe("flag metadata over GraphQL", () => {
  it("updates description, type and impressionData with one feature-metadata-updated (new/old record)", async () => {
    await metaFlag("meta-update");
    const { result, brief } = await recorded(t, () =>
      t.gql(UPDATE, {
        name: "meta-update",
        input: { description: "second", type: "experiment", impressionData: true },
      }),
    );
    expect(result).toEqual({
      data: {
        updateFeature: {
          name: "meta-update",
          description: "second",
          type: "experiment",
          impressionData: true,
          stale: false,
        },
      },
    });
    expect(brief).toEqual([
      {
        type: "feature-metadata-updated",
        featureName: "meta-update",
        data: record("meta-update", { description: "second", type: "experiment", impressionData: true }),
        preData: record("meta-update", {}),
      },
    ]);
  });

  it("records nothing when nothing changes", async () => {
    await metaFlag("meta-same", { description: "second", type: "experiment" });
    const { result, events } = await recorded(t, () =>
      t.gql(UPDATE, { name: "meta-same", input: { description: "second", type: "experiment" } }),
    );
    expect((result as { errors?: unknown }).errors).toBeUndefined();
    expect(events).toEqual([]);
  });

  it("refuses an unknown type naming the field, and writes nothing", async () => {
    await metaFlag("meta-bad-type");
    const { result, events } = await recorded(t, () =>
      t.gql(UPDATE, { name: "meta-bad-type", input: { type: "nope" } }),
    );
    expect(gqlCode(result as never)).toBe("VALIDATION");
    expect((result as { errors: { message: string }[] }).errors[0]?.message).toMatch(/^type: /);
    expect(events).toEqual([]);
  });

  it("answers NOT_FOUND for an unknown flag or a flag of another project", async () => {
    await metaFlag("meta-elsewhere");
    expect(gqlCode(await t.gql(UPDATE, { name: "ghost", input: { description: "x" } }))).toBe("NOT_FOUND");
    const other = await t.gql(
      `mutation { updateFeature(project: "elsewhere", name: "meta-elsewhere", input: { description: "x" }) { name } }`,
    );
    expect(gqlCode(other)).toBe("NOT_FOUND");
  });

  it("marks stale on and off with feature-stale-on/-off, none when unchanged", async () => {
    await metaFlag("meta-stale");
    const on = await recorded(t, () => t.gql(UPDATE, { name: "meta-stale", input: { stale: true } }));
    expect(on.brief).toEqual([
      { type: "feature-stale-on", featureName: "meta-stale", data: null, preData: null },
    ]);
    const again = await recorded(t, () =>
      t.gql(
        `mutation { setFeaturesStale(project: "default", names: ["meta-stale"], stale: true) { name stale } }`,
      ),
    );
    expect(again.result).toEqual({ data: { setFeaturesStale: [{ name: "meta-stale", stale: true }] } });
    expect(again.events).toEqual([]);
    const off = await recorded(t, () =>
      t.gql(
        `mutation { setFeaturesStale(project: "default", names: ["meta-stale"], stale: false) { name stale } }`,
      ),
    );
    expect(off.brief).toEqual([
      { type: "feature-stale-off", featureName: "meta-stale", data: null, preData: null },
    ]);
  });

  it("applies a JSON Patch: metadata event and stale event", async () => {
    await metaFlag("meta-patch", { description: "second" });
    const { result, brief } = await recorded(t, () =>
      t.gql(
        `mutation($ops: [JsonPatchOperationInput!]!) { patchFeature(project: "default", name: "meta-patch", operations: $ops) { description stale } }`,
        {
          ops: [
            { op: "replace", path: "/description", value: "patched" },
            { op: "replace", path: "/stale", value: true },
          ],
        },
      ),
    );
    expect(result).toEqual({ data: { patchFeature: { description: "patched", stale: true } } });
    expect(brief.map((e) => e.type)).toEqual(["feature-metadata-updated", "feature-stale-on"]);
    expect(brief[0]?.data).toMatchObject({ description: "patched" });
    expect(brief[0]?.preData).toMatchObject({ description: "second" });
  });

  it("refuses patch paths other than the metadata fields, naming the operation", async () => {
    await metaFlag("meta-patch-path");
    const res = await t.gql(
      `mutation { patchFeature(project: "default", name: "meta-patch-path", operations: [{ op: "replace", path: "/name", value: "x" }]) { name } }`,
    );
    expect(gqlCode(res)).toBe("VALIDATION");
    expect(res.errors?.[0]?.message).toMatch(/^0\.path: /);
  });
});

describe("flag metadata over REST", () => {
  it("creates with 201 (as the running Unleash) and the Feature record, 409 on a taken name, 400 naming a missing field", async () => {
    const created = await t.rest("POST", "/api/admin/projects/default/features", {
      name: "rest-flag",
      description: "via rest",
      type: "operational",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "rest-flag",
      project: "default",
      type: "operational",
      description: "via rest",
      archived: false,
      lifecycle: { stage: "initial" },
      environments: [
        { name: "development", enabled: false },
        { name: "production", enabled: false },
      ],
      tags: [],
      children: [],
      dependencies: [],
      collaborators: { users: [] },
      favorite: false,
    });
    const taken = await t.rest("POST", "/api/admin/projects/default/features", { name: "rest-flag" });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe("NameExistsError");
    const missing = await t.rest("POST", "/api/admin/projects/default/features", { description: "no name" });
    expect(missing.status).toBe(400);
    expect(missing.body.name).toBe("ValidationError");
    expect(missing.body.message).toMatch(/name/);
    const badName = await t.rest("POST", "/api/admin/projects/default/features", { name: "has space" });
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/^name: /);
    const unknownProject = await t.rest("POST", "/api/admin/projects/nope/features", { name: "x-flag" });
    expect(unknownProject.status).toBe(404);
  });

  it("lists a project's flags as {version: 1, features}", async () => {
    await createProject(t, "listing");
    await metaFlag("listed-meta", { project: "listing" });
    expect(
      (await t.rest("POST", "/api/admin/projects/listing/features", { name: "listed-rest" })).status,
    ).toBe(201);
    const res = await t.rest("GET", "/api/admin/projects/listing/features");
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(["listed-meta", "listed-rest"]);
    expect((await t.rest("GET", "/api/admin/projects/nope/features")).status).toBe(404);
  });

  it("gets one flag, 404 when unknown or in another project", async () => {
    await restFlag("rest-get");
    const res = await t.rest("GET", "/api/admin/projects/default/features/rest-get");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "rest-get", type: "operational" });
    const unknown = await t.rest("GET", "/api/admin/projects/default/features/ghost");
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe("NotFoundError");
    expect((await t.rest("GET", "/api/admin/projects/other/features/rest-get")).status).toBe(404);
  });

  it("PUTs metadata, ignoring identity fields of the body", async () => {
    const flag = await restFlag("rest-put");
    const { result, brief } = await recorded(t, () =>
      t.rest("PUT", flag, {
        name: "ignored",
        project: "ignored",
        description: "put",
        type: "release",
        impressionData: true,
      }),
    );
    expect(result).toMatchObject({
      status: 200,
      body: { name: "rest-put", description: "put", type: "release", impressionData: true },
    });
    expect(brief).toEqual([
      expect.objectContaining({
        type: "feature-metadata-updated",
        data: expect.objectContaining({ description: "put", type: "release", impressionData: true }),
        preData: expect.objectContaining({
          description: "via rest",
          type: "operational",
          impressionData: false,
        }),
      }),
    ]);
    const bad = await t.rest("PUT", flag, {
      impressionData: "yes",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/impressionData/);
  });

  it("PATCHes with JSON Patch; a failing test op is 400 and changes nothing", async () => {
    const flag = await restFlag("rest-patch");
    const ok = await t.rest("PATCH", flag, [{ op: "replace", path: "/description", value: "patched" }]);
    expect(ok.status).toBe(200);
    expect(ok.body.description).toBe("patched");
    const { result, events } = await recorded(t, () =>
      t.rest("PATCH", flag, [
        { op: "replace", path: "/description", value: "never" },
        { op: "test", path: "/type", value: "experiment" },
      ]),
    );
    expect((result as { status: number }).status).toBe(400);
    expect(events).toEqual([]);
    const after = await t.rest("GET", flag);
    expect(after.body.description).toBe("patched");
  });

  it("marks stale in bulk with 202, events only for flags that change", async () => {
    await restFlag("bulk-fresh");
    await metaFlag("bulk-already-stale");
    await t.gql(UPDATE, { name: "bulk-already-stale", input: { stale: true } });
    const { result, brief } = await recorded(t, () =>
      t.rest("POST", "/api/admin/projects/default/stale", {
        features: ["bulk-already-stale", "bulk-fresh"],
        stale: true,
      }),
    );
    expect((result as { status: number }).status).toBe(202);
    expect(brief).toEqual([
      { type: "feature-stale-on", featureName: "bulk-fresh", data: null, preData: null },
    ]);
    const unknown = await recorded(t, () =>
      t.rest("POST", "/api/admin/projects/default/stale", {
        features: ["bulk-fresh", "ghost"],
        stale: false,
      }),
    );
    expect((unknown.result as { status: number }).status).toBe(404);
    expect(unknown.events).toEqual([]);
    const missing = await t.rest("POST", "/api/admin/projects/default/stale", { features: ["bulk-fresh"] });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/stale/);
  });
});
