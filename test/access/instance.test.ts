import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  archiveFlag,
  CREATE_FLAG,
  createFlag,
  createProject,
  favoriteFlag,
  gqlOk,
  PROJECT_ROLE,
  userWithPat,
} from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    VEXIL_URL: "https://flags.example.com/vexil",
    BASE_URI_PATH: "/vexil",
    AUTH_TYPE: "custom",
    FRONTEND_API_ORIGINS: "https://app.example.com, https://www.example.com",
    UNLEASH_SEGMENTS_LIMIT: "42",
  });
});
afterAll(() => t.close());

describe("ui-config (spec 4.9)", () => {
  it("reports every field with values from configuration and the package", async () => {
    const uma = await userWithPat(t, "uma", "Viewer");
    const res = await t.rest("GET", "/api/admin/ui-config", undefined, uma.token);
    expect(res.status).toBe(200);
    const version = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
    expect(res.body).toMatchObject({
      version,
      unleashUrl: "https://flags.example.com/vexil",
      baseUriPath: "/vexil",
      authenticationType: "custom",
      disablePasswordAuth: false,
      emailEnabled: false,
      frontendApiOrigins: ["https://app.example.com", "https://www.example.com"],
      segmentValuesLimit: 1000,
      strategySegmentsLimit: 5,
      versionInfo: {
        current: { oss: version, enterprise: "" },
        latest: {},
        isLatest: true,
        instanceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
    expect(res.body.resourceLimits).toEqual({
      featureFlags: 5000,
      featureEnvironmentStrategies: 30,
      constraints: 30,
      constraintValues: 250,
      segments: 42,
      strategySegments: 5,
      segmentValues: 1000,
      apiTokens: 2000,
      projects: 500,
      environments: 50,
      actionSetActions: 10,
      actionSetsPerProject: 5,
      actionSetFilters: 5,
      actionSetFilterValues: 25,
      signalEndpoints: 5,
      signalTokensPerEndpoint: 5,
    });
    for (const field of [
      "slogan",
      "name",
      "environment",
      "billing",
      "maintenanceMode",
      "networkViewEnabled",
      "flags",
      "links",
      "oidcConfiguredThroughEnv",
      "samlConfiguredThroughEnv",
      "unleashAIAvailable",
    ]) {
      expect(res.body).toHaveProperty(field);
    }
    expect((await t.rest("GET", "/api/admin/ui-config", undefined, null)).status).toBe(401);
  });
});

describe("personal dashboard (spec 4.10)", () => {
  it("shows the caller's projects, their owners, the admins, and flags created or favourited", async () => {
    const dora = await userWithPat(t, "dora", "Viewer");
    const olive = await userWithPat(t, "olive", "Viewer");
    await addProjectMember(t, "default", dora.id, PROJECT_ROLE.member);
    await addProjectMember(t, "default", olive.id, PROJECT_ROLE.owner);
    const byDora = (input: { name: string; type?: string }) =>
      gqlOk(t, CREATE_FLAG, { p: "default", input }, dora.token);
    await byDora({ name: "dora-flag", type: "experiment" });
    await createFlag(t, "admins-flag");
    await createFlag(t, "starred-flag");
    await favoriteFlag(t, "starred-flag", dora.token);
    await byDora({ name: "gone-flag" });
    await archiveFlag(t, "gone-flag");

    const res = await t.rest("GET", "/api/admin/personal-dashboard", undefined, dora.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      admins: [
        {
          id: expect.any(Number),
          name: "admin",
          username: "admin",
          imageUrl: expect.stringMatching(/\/avatars\/\d+\.svg$/),
          email: "",
        },
      ],
      projectOwners: [{ ownerType: "user", name: "olive", imageUrl: null, email: "olive@example.com" }],
      projects: [{ id: "default", name: "Default", health: 100, memberCount: 2, featureCount: 3 }],
      flags: [
        { name: "starred-flag", project: "default", type: "release" },
        { name: "dora-flag", project: "default", type: "experiment" },
      ],
    });
  });

  it("a credential with no user (admin API token) gets 200 with the personal lists empty", async () => {
    const res = await t.rest("GET", "/api/admin/personal-dashboard");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projects: [], flags: [], projectOwners: [] });
    expect(res.body.admins).toHaveLength(1);
  });

  it("viewer answers me, my projects and my flags in GraphQL", async () => {
    // A user and a project of its own: the dashboard test makes flags in default.
    const vera = await userWithPat(t, "vera", "Viewer");
    await createProject(t, "vera-project");
    await addProjectMember(t, "vera-project", vera.id, PROJECT_ROLE.member);
    await gqlOk(t, CREATE_FLAG, { p: "vera-project", input: { name: "vera-flag" } }, vera.token);
    await createFlag(t, "vera-starred", { project: "vera-project" });
    await favoriteFlag(t, "vera-starred", vera.token, "vera-project");
    const res = await t.gql(
      `{ viewer { name user { username } projects { id: databaseId } flags { name } } }`,
      {},
      vera.token,
    );
    expect(res.data).toEqual({
      viewer: {
        name: "vera",
        user: { username: "vera" },
        projects: [{ id: "vera-project" }],
        flags: [{ name: "vera-starred" }, { name: "vera-flag" }],
      },
    });
    const asToken = await t.gql(`{ viewer { kind user { id } projects { id: databaseId } flags { name } } }`);
    expect(asToken.data).toEqual({ viewer: { kind: "admin-token", user: null, projects: [], flags: [] } });
  });
});
