import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableChange, propose } from "../change-requests/fixtures.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  apiToken,
  configureChangeRequests,
  createFlag,
  createProject,
  createSegment,
  eventsOf,
  gqlError,
  gqlOk,
  userWithPat,
} from "../helpers/builders.ts";
import { times } from "../helpers/concurrency.ts";

/** Deleting and cloning environments (Unleash Enterprise's environment pages; issue 40.6). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CLONE = `mutation($name: String!, $input: CloneEnvironmentInput!) {
  cloneEnvironment(name: $name, input: $input) { name type enabled sortOrder projectCount } }`;
const DELETE = `mutation($name: String!) { deleteEnvironment(name: $name) }`;

type EnvState = { name: string; enabled: boolean; variants: { name: string }[]; strategies: Strategy[] };
type Strategy = {
  databaseId: string;
  name: string;
  parameters: unknown;
  constraints: unknown[];
  segments: number[];
};

async function flagIn(flag: string, environment: string, project = "default"): Promise<EnvState | undefined> {
  const data = await gqlOk(
    t,
    `query($p: String!, $n: String!) { projectFeature(project: $p, name: $n) { environments {
      name enabled variants { name }
      strategies { databaseId name title disabled sortOrder parameters constraints { contextName operator values } segments } } } }`,
    { p: project, n: flag },
  );
  return data.projectFeature.environments.find((e: EnvState) => e.name === environment);
}

const environmentNames = async () =>
  (await gqlOk(t, `{ environments { name } }`)).environments.map((e: { name: string }) => e.name);

const pastEnvironments = async (flag: string) =>
  (
    await gqlOk(
      t,
      `query($n: String!, $at: DateTime!) { featureAt(name: $n, at: $at) { state { environments { name } } } }`,
      {
        n: flag,
        at: new Date().toISOString(),
      },
    )
  ).featureAt.state.environments.map((e: { name: string }) => e.name);

describe("cloning an environment", () => {
  it("copies every flag's on/off, variants and strategies (new ids, same segments) into the source's projects", async () => {
    const segment = await createSegment(t, "beta-users", {
      constraints: [{ contextName: "userId", operator: "IN", values: ["1"] }],
    });
    await createFlag(t, "clone-me", {
      strategies: [
        {
          environment: "production",
          name: "flexibleRollout",
          title: "A quarter of web users",
          disabled: true,
          parameters: { rollout: "25", stickiness: "default", groupId: "clone-me" },
          constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
          segments: [segment],
        },
      ],
      enabledIn: ["production"],
    });
    await gqlOk(
      t,
      `mutation { setFeatureEnvironmentVariants(project: "default", feature: "clone-me", environment: "production",
        variants: [{ name: "blue", weightType: variable, stickiness: "default" }]) { name } }`,
    );
    await createFlag(t, "off-here");
    const source = await flagIn("clone-me", "production");

    const data = await gqlOk(t, CLONE, {
      name: "production",
      input: { name: "prod-eu", type: "production" },
    });
    expect(data.cloneEnvironment).toMatchObject({
      name: "prod-eu",
      type: "production",
      enabled: true,
      projectCount: 1,
    });

    const copy = await flagIn("clone-me", "prod-eu");
    expect(copy?.enabled).toBe(true);
    expect(copy?.variants).toEqual([{ name: "blue" }]);
    expect(copy?.strategies.map(({ databaseId: _, ...s }) => s)).toEqual(
      source?.strategies.map(({ databaseId: _, ...s }) => s),
    );
    expect(copy?.strategies[0]?.databaseId).not.toBe(source?.strategies[0]?.databaseId);
    expect(copy?.strategies[0]).toMatchObject({
      title: "A quarter of web users",
      disabled: true,
      segments: [segment],
    });
    expect(await flagIn("off-here", "prod-eu")).toMatchObject({ enabled: false, strategies: [] });
    // The source is untouched.
    expect(await flagIn("clone-me", "production")).toEqual(source);

    const events = await eventsOf(t, ["environment-created", "project-environment-added"]);
    expect(events.filter((e) => e.environment === "prod-eu").map((e) => [e.type, e.project])).toEqual([
      ["environment-created", null],
      ["project-environment-added", "default"],
    ]);
    // Every flag's history follows: time travel sees the new environment now.
    expect(await pastEnvironments("clone-me")).toContain("prod-eu");
  });

  it("into the listed projects only; a project without the source, an unknown source or a taken name write nothing", async () => {
    await createProject(t, "solo", { environments: ["development"] });
    const missing = await gqlError(t, CLONE, {
      name: "production",
      input: { name: "prod-us", type: "production", projects: ["default", "solo"] },
    });
    expect(missing.code).toBe("NOT_FOUND");
    expect(missing.message).toMatch(/"solo" does not have the environment "production"/);
    expect(await environmentNames()).not.toContain("prod-us");

    expect((await gqlError(t, CLONE, { name: "nowhere", input: { name: "x-env", type: "test" } })).code).toBe(
      "NOT_FOUND",
    );
    expect(
      (await gqlError(t, CLONE, { name: "production", input: { name: "development", type: "test" } })).code,
    ).toBe("NAME_EXISTS");
    expect(
      (await gqlError(t, CLONE, { name: "production", input: { name: "bad name", type: "production" } }))
        .code,
    ).toBe("VALIDATION");

    const only = await gqlOk(t, CLONE, {
      name: "development",
      input: { name: "dev-solo", type: "development", projects: ["solo"] },
    });
    expect(only.cloneEnvironment.projectCount).toBe(1);
  });
});

describe("deleting an environment", () => {
  it("removes it from every project with their events, then records environment-deleted; history follows", async () => {
    await createFlag(t, "in-doomed", { strategies: [{ environment: "production", name: "default" }] });
    await gqlOk(t, CLONE, { name: "production", input: { name: "doomed", type: "production" } });
    expect((await flagIn("in-doomed", "doomed"))?.strategies).toHaveLength(1);
    expect((await gqlOk(t, DELETE, { name: "doomed" })).deleteEnvironment).toBe(true);
    expect(await environmentNames()).not.toContain("doomed");
    expect(await flagIn("in-doomed", "doomed")).toBeUndefined();
    expect(await t.database.prisma.featureStrategy.count({ where: { environmentName: "doomed" } })).toBe(0);
    const events = (await eventsOf(t, ["project-environment-removed", "environment-deleted"])).filter(
      (e) => e.environment === "doomed",
    );
    expect(events.map((e) => e.type)).toEqual(["project-environment-removed", "environment-deleted"]);
    expect(events[1]?.preData).toMatchObject({ name: "doomed", type: "production" });
    expect(await pastEnvironments("in-doomed")).not.toContain("doomed");
    expect((await gqlError(t, DELETE, { name: "doomed" })).code).toBe("NOT_FOUND");
  });

  it("is refused, with nothing deleted, for a protected one, while tokens or open change requests are for it, and for a project's last", async () => {
    await createFlag(t, "in-guarded");
    await gqlOk(t, CLONE, { name: "production", input: { name: "guarded", type: "production" } });
    await t.database.prisma.environment.update({ where: { name: "guarded" }, data: { protected: true } });
    expect((await gqlError(t, DELETE, { name: "guarded" })).code).toBe("INVALID_OPERATION");
    await t.database.prisma.environment.update({ where: { name: "guarded" }, data: { protected: false } });

    await apiToken(t, "client", "guarded", ["*"], "guarded-sdk");
    const tokens = await gqlError(t, DELETE, { name: "guarded" });
    expect(tokens).toMatchObject({ code: "CONFLICT" });
    expect(tokens.message).toMatch(/1 API token\(s\)/);
    await t.database.prisma.apiToken.deleteMany({ where: { environment: "guarded" } });

    await configureChangeRequests(t, "guarded", 1);
    const author = await userWithPat(t, "env-author", "Editor");
    expect((await propose(t, "guarded", enableChange("in-guarded"), author.token)).status).toBe(200);
    expect((await gqlError(t, DELETE, { name: "guarded" })).code).toBe("CONFLICT");
    expect(await flagIn("in-guarded", "guarded")).toBeDefined();

    // A project whose only environment it is keeps it.
    await gqlOk(t, CLONE, {
      name: "development",
      input: { name: "only-here", type: "development", projects: [] },
    });
    await createProject(t, "lonely", { environments: ["only-here"] });
    expect((await gqlError(t, DELETE, { name: "only-here" })).code).toBe("INVALID_OPERATION");
    expect(await environmentNames()).toContain("only-here");
  });

  it("needs DELETE_ENVIRONMENT, which Editors do not hold; cloning needs CREATE_ENVIRONMENT, which they do", async () => {
    const editor = await userWithPat(t, "env-editor", "Editor");
    expect((await gqlError(t, DELETE, { name: "development" }, editor.token)).code).toBe("FORBIDDEN");
    const cloned = await t.gql(
      CLONE,
      { name: "development", input: { name: "dev-copy", type: "development" } },
      editor.token,
    );
    expect(cloned.errors).toBeUndefined();
  });
});

describe("under concurrency", () => {
  it("five clones to one name make one environment; five deletions delete once", async () => {
    const clones = await times(5, () =>
      t.gql(CLONE, { name: "development", input: { name: "raced", type: "development" } }),
    );
    expect(clones.filter((r) => !r.errors)).toHaveLength(1);
    expect(
      clones.filter((r) => r.errors).every((r) => r.errors?.[0]?.extensions?.code === "NAME_EXISTS"),
    ).toBe(true);
    expect(
      (await eventsOf(t, ["environment-created"])).filter((e) => e.environment === "raced"),
    ).toHaveLength(1);

    const deletions = await times(5, () => t.gql(DELETE, { name: "raced" }));
    expect(deletions.filter((r) => !r.errors)).toHaveLength(1);
    expect(
      deletions.filter((r) => r.errors).every((r) => r.errors?.[0]?.extensions?.code === "NOT_FOUND"),
    ).toBe(true);
    expect(
      (await eventsOf(t, ["environment-deleted"])).filter((e) => e.environment === "raced"),
    ).toHaveLength(1);
  });
});
