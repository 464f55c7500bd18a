/**
 * Test builders: every fixture a test needs, made through the public API (GraphQL over HTTP
 * or REST, with the admin token unless a caller's token is given), so fixtures record the same
 * events and pass the same checks as a real client's calls.
 */
import { expect } from "vitest";
import type { TestApp } from "./app.ts";
import { login, PASSWORD, type Session, withSession } from "./session.ts";

type Variables = Record<string, unknown>;

/** What the builders call: an in-process TestApp, or a server process through `apiClient`. */
export type Api = Pick<TestApp, "gql" | "rest">;

/** Runs a GraphQL operation that must succeed (the test fails on any error) and returns its data. */
export async function gqlOk<T = Record<string, any>>(
  t: Api,
  query: string,
  variables?: Variables,
  token?: string | null,
): Promise<T> {
  const res = await t.gql<T>(query, variables, token);
  expect(res.errors, `GraphQL errors for ${query.trim().slice(0, 80)}`).toBeUndefined();
  return res.data as T;
}

/** Runs a GraphQL operation that must fail and returns its first error's code and message. */
export async function gqlError(t: Api, query: string, variables?: Variables, token?: string | null) {
  const res = await t.gql(query, variables, token);
  const error = res.errors?.[0];
  if (!error) throw new Error(`expected a GraphQL error, got ${JSON.stringify(res.data)}`);
  return { code: error.extensions?.code as string | undefined, message: error.message };
}

/** The first error's code of a GraphQL answer (undefined when it has none). */
export function gqlCode(res: { errors?: { extensions?: Record<string, unknown> }[] }) {
  return res.errors?.[0]?.extensions?.code;
}

// ---- Events ----

export type RecordedEvent = {
  id: number;
  type: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  createdBy: string;
  createdByUserId: number | null;
  data: Record<string, any> | null;
  preData: Record<string, any> | null;
  tags: { type: string; value: string }[];
  groupId: string | null;
  groupType: string | null;
  label: string | null;
  summary: string | null;
};

const EVENT_FIELDS = `id: databaseId type project environment featureName createdBy createdByUserId
  data preData tags { type value } groupId groupType label summary`;

/** The id of the newest event (0 when none), to list what an action records with `eventsAfter`. */
export async function lastEventId(t: Api): Promise<number> {
  const data = await gqlOk<{ events: { edges: { node: { databaseId: number } }[] } }>(
    t,
    `{ events(first: 1) { edges { node { databaseId } } } }`,
  );
  return data.events.edges[0]?.node.databaseId ?? 0;
}

/** Events recorded after `mark`, oldest first, through the public events query. */
export async function eventsAfter(t: Api, mark: number): Promise<RecordedEvent[]> {
  const data = await gqlOk<{ events: { edges: { node: RecordedEvent }[] } }>(
    t,
    `{ events(first: 1000) { edges { node { ${EVENT_FIELDS} } } } }`,
  );
  return data.events.edges
    .map((e) => e.node)
    .filter((e) => e.id > mark)
    .reverse();
}

/** The events of the given types, oldest first. */
export async function eventsOf(t: Api, types: string[]): Promise<RecordedEvent[]> {
  const data = await gqlOk<{ events: { edges: { node: RecordedEvent }[] } }>(
    t,
    `query($types: [String!]) { events(filter: { types: $types }, first: 1000) { edges { node { ${EVENT_FIELDS} } } } }`,
    { types },
  );
  return data.events.edges.map((e) => e.node).reverse();
}

/** Runs `action` and returns what it recorded, as `{type, featureName, data, preData}` rows. */
export async function recorded<T>(t: Api, action: () => Promise<T>) {
  const before = await lastEventId(t);
  const result = await action();
  const events = await eventsAfter(t, before);
  return {
    result,
    events,
    brief: events.map(({ type, featureName, data, preData }) => ({ type, featureName, data, preData })),
  };
}

// ---- Projects and flags ----

/** A project (id = name) with the given environments (default: every enabled environment). */
export async function createProject(
  t: Api,
  id: string,
  options: { name?: string; description?: string; environments?: string[] } = {},
) {
  await gqlOk(t, `mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }`, {
    input: { id, name: options.name ?? id, ...options },
  });
}

export type FlagOptions = {
  project?: string;
  type?: string;
  description?: string;
  impressionData?: boolean;
  tags?: { type: string; value: string }[];
  /** Strategies to add, each in its `environment` (default development). */
  strategies?: ({ environment?: string } & Variables & { name: string })[];
  /** Environments to turn the flag on in, after its strategies are added. */
  enabledIn?: string[];
};

/** The createFeature mutation (`$p` the project, `$input` the flag), for tests that look at its answer. */
export const CREATE_FLAG = `mutation($p: String!, $input: CreateFeatureInput!) {
  createFeature(project: $p, input: $input) { name } }`;

/** A flag made with createFeature, then given its strategies and turned on where asked. */
export async function createFlag(t: Api, name: string, options: FlagOptions = {}) {
  const { project = "default", strategies = [], enabledIn = [], ...input } = options;
  await gqlOk(t, CREATE_FLAG, { p: project, input: { name, ...input } });
  for (const { environment = "development", ...strategy } of strategies) {
    await addStrategy(t, name, strategy, environment, project);
  }
  for (const environment of enabledIn) await enableFlag(t, name, environment, project);
}

/** Several plain flags in one project. */
export async function createFlags(t: Api, names: string[], project = "default") {
  for (const name of names) await createFlag(t, name, { project });
}

export async function enableFlag(t: Api, name: string, environment: string, project = "default") {
  await gqlOk(
    t,
    `mutation($p: String!, $f: String!, $e: String!) { enableFeatureEnvironment(project: $p, feature: $f, environment: $e) { name } }`,
    { p: project, f: name, e: environment },
  );
}

export async function disableFlag(t: Api, name: string, environment: string, project = "default") {
  await gqlOk(
    t,
    `mutation($p: String!, $f: String!, $e: String!) { disableFeatureEnvironment(project: $p, feature: $f, environment: $e) { name } }`,
    { p: project, f: name, e: environment },
  );
}

export async function archiveFlag(t: Api, name: string, project = "default") {
  await gqlOk(
    t,
    `mutation($p: String!, $n: [String!]!) { archiveFeatures(project: $p, names: $n) { name } }`,
    {
      p: project,
      n: [name],
    },
  );
}

/** Whether the flag is on in the environment, read over GraphQL. */
export async function flagEnabledIn(t: Api, name: string, environment: string): Promise<boolean> {
  const data = await gqlOk<{ feature: { environment: { enabled: boolean } } }>(
    t,
    `query($f: String!, $e: String!) { feature(name: $f) { environment(name: $e) { enabled } } }`,
    { f: name, e: environment },
  );
  return data.feature.environment.enabled;
}

/** `POST .../features/:flag/environments/:environment/on` as the caller of `token`; the REST answer. */
export function turnOnOverRest(
  t: Api,
  name: string,
  environment: string,
  token?: string,
  project = "default",
) {
  return t.rest(
    "POST",
    `/api/admin/projects/${project}/features/${name}/environments/${environment}/on`,
    undefined,
    token,
  );
}

/** Makes `child` depend on `parent` (on, or with one of `variants`), over GraphQL. */
export async function addDependency(
  t: Api,
  child: string,
  parent: string,
  options: { enabled?: boolean; variants?: string[] } = {},
  project = "default",
) {
  await gqlOk(
    t,
    `mutation($p: String!, $f: String!, $i: AddDependencyInput!) { addFeatureDependency(project: $p, feature: $f, input: $i) { name } }`,
    { p: project, f: child, i: { feature: parent, ...options } },
  );
}

/** Favourites a flag for the caller (the admin token's shared user unless a token is given). */
export async function favoriteFlag(t: Api, name: string, token?: string, project = "default") {
  await gqlOk(
    t,
    `mutation($p: String!, $f: String!) { favoriteFeature(project: $p, feature: $f) { name } }`,
    { p: project, f: name },
    token,
  );
}

/** Favourites (or, with `favorite: false`, unfavourites) a project for the caller. */
export async function favoriteProject(t: Api, project: string, token?: string, favorite = true) {
  const field = favorite ? "favoriteProject" : "unfavoriteProject";
  await gqlOk(t, `mutation($p: String!) { ${field}(project: $p) { databaseId } }`, { p: project }, token);
}

// ---- Strategies ----

/** The fields of a strategy as `addStrategy` returns it. */
export const STRATEGY = `id: databaseId name title disabled sortOrder segments parameters
  constraints { contextName operator caseInsensitive inverted values value }
  variants { name weight weightType stickiness payload { type value } }`;

/** A strategy's only variant: every user gets it (weight 1000, variable, default stickiness). */
export const soleVariant = (name: string, payload?: { type: string; value: string }) => ({
  name,
  weight: 1000,
  weightType: "variable",
  stickiness: "default",
  ...(payload ? { payload } : {}),
});

/** Adds a strategy over GraphQL and returns it. */
export async function addStrategy(
  t: Api,
  feature: string,
  input: Variables,
  environment = "development",
  project = "default",
) {
  const data = await gqlOk<{ addFeatureStrategy: Record<string, any> }>(
    t,
    `mutation($p: String!, $f: String!, $e: String!, $i: StrategyInput!) {
      addFeatureStrategy(project: $p, feature: $f, environment: $e, input: $i) { ${STRATEGY} } }`,
    { p: project, f: feature, e: environment, i: input },
  );
  return data.addFeatureStrategy;
}

/** Changes a strategy of a flag in project default, over GraphQL. */
export async function updateStrategy(
  t: Api,
  feature: string,
  id: string,
  input: Variables,
  environment: string,
) {
  await gqlOk(
    t,
    `mutation($f: String!, $e: String!, $id: String!, $i: StrategyUpdateInput!) {
      updateFeatureStrategy(project: "default", feature: $f, environment: $e, id: $id, input: $i) { id } }`,
    { f: feature, e: environment, id, i: input },
  );
}

/** Deletes a strategy of a flag in project default, over GraphQL. */
export async function deleteStrategy(t: Api, feature: string, id: string, environment: string) {
  await gqlOk(
    t,
    `mutation($f: String!, $e: String!, $id: String!) {
      deleteFeatureStrategy(project: "default", feature: $f, environment: $e, id: $id) { name } }`,
    { f: feature, e: environment, id },
  );
}

// ---- Change requests ----

/**
 * Turns change requests on (or off) in one environment of a project, over REST. The admin
 * token keeps SKIP_CHANGE_REQUEST, so builders that use it still work there.
 */
export async function configureChangeRequests(
  t: Api,
  environment: string,
  requiredApprovals: number,
  enabled = true,
  project = "default",
) {
  const res = await t.rest(
    "PUT",
    `/api/admin/projects/${project}/environments/${environment}/change-requests/config`,
    { changeRequestsEnabled: enabled, requiredApprovals },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

/** One environment's change request configuration, as `GET .../change-requests/config` lists it. */
export async function changeRequestConfig(t: Api, environment: string, project = "default") {
  const res = await t.rest("GET", `/api/admin/projects/${project}/change-requests/config`);
  expect(res.status).toBe(200);
  return (
    res.body as { environment: string; changeRequestEnabled: boolean; requiredApprovals: number | null }[]
  ).find((c) => c.environment === environment);
}

// ---- SDK metrics ----

type Toggles = Record<string, { yes: number; no: number; variants?: Record<string, number> }>;

/** unleash-client's metrics body for one bucket (a minute from `start`). */
export function sdkBucket(appName: string, instanceId: string, toggles: Toggles, start = new Date()) {
  return {
    appName,
    instanceId,
    connectionId: `${instanceId}-connection`,
    bucket: { start: start.toISOString(), stop: new Date(start.getTime() + 60_000).toISOString(), toggles },
    platformName: "node",
    platformVersion: "20.20.0",
    yggdrasilVersion: null,
    specVersion: "5.2.2",
  };
}

/**
 * Reports one metrics bucket as an SDK does (`POST /api/client/metrics`) for the minute before
 * the app's clock; a flag counted in it gets that as its `lastSeenAt`. Returns the HTTP status.
 * Stored before the answer only when the app runs with VEXIL_METRICS_FLUSH_MS=0.
 */
export async function reportMetrics(
  t: TestApp,
  sdkToken: string,
  toggles: Toggles,
  options: { appName?: string; instanceId?: string } = {},
): Promise<number> {
  const { appName = "web", instanceId = `${appName}-1` } = options;
  const start = new Date(t.deps.now().getTime() - 60_000);
  const withVariants = Object.fromEntries(
    Object.entries(toggles).map(([name, counts]) => [name, { variants: {}, ...counts }]),
  );
  const res = await t.rest(
    "POST",
    "/api/client/metrics",
    sdkBucket(appName, instanceId, withVariants, start),
    sdkToken,
  );
  return res.status;
}

// ---- Catalog ----

export async function createTagType(t: Api, name: string, input: Variables = {}) {
  await gqlOk(t, `mutation($input: CreateTagTypeInput!) { createTagType(input: $input) { name } }`, {
    input: { name, ...input },
  });
}

/** A segment; returns its database id. */
export async function createSegment(t: Api, name: string, input: Variables = {}): Promise<number> {
  const data = await gqlOk<{ createSegment: { id: number } }>(
    t,
    `mutation($input: SegmentInput!) { createSegment(input: $input) { id: databaseId } }`,
    { input: { name, ...input } },
  );
  return data.createSegment.id;
}

export async function createContextField(t: Api, name: string, input: Variables = {}) {
  await gqlOk(
    t,
    `mutation($input: CreateContextFieldInput!) { createContextField(input: $input) { name } }`,
    {
      input: { name, ...input },
    },
  );
}

// ---- Users, roles and tokens ----

/** A custom role; returns its database id. */
export async function createRole(
  t: Api,
  name: string,
  permissions: { name: string; environment?: string }[],
  type = "custom",
): Promise<number> {
  const data = await gqlOk<{ createRole: { id: number } }>(
    t,
    `mutation($input: RoleInput!) { createRole(input: $input) { id } }`,
    { input: { name, type, description: name, permissions } },
  );
  return data.createRole.id;
}

/** The predefined project roles' ids (as in Unleash). */
export const PROJECT_ROLE = { owner: 4, member: 5 } as const;

export async function addProjectMember(t: Api, project: string, userId: number, roleId: number) {
  await gqlOk(
    t,
    `mutation($p: String!, $u: Int!, $r: Int!) { addProjectMember(project: $p, userId: $u, roleId: $r) }`,
    {
      p: project,
      u: userId,
      r: roleId,
    },
  );
}

/** A user with a root role and the password `PASSWORD` (unless given); returns its database id. */
export async function createUser(
  t: Api,
  username: string,
  rootRole: string,
  options: { email?: string | null; name?: string; password?: string } = {},
): Promise<number> {
  const data = await gqlOk<{ createUser: { id: number } }>(
    t,
    `mutation($input: CreateUserInput!) { createUser(input: $input) { id: databaseId } }`,
    {
      input: {
        username,
        rootRole,
        email: options.email === null ? undefined : (options.email ?? `${username}@example.com`),
        name: options.name ?? username,
        password: options.password ?? PASSWORD,
      },
    },
  );
  return data.createUser.id;
}

/** Logs in as the user and makes them a personal access token; returns the token and the session. */
export async function personalToken(t: TestApp, username: string, password = PASSWORD) {
  const { status, session } = await login(t, username, password);
  expect(status, `login of ${username}`).toBe(200);
  const pat = await withSession(t, session, "POST", "/api/admin/user/tokens", {
    description: "tests",
    expiresAt: "2099-01-01T00:00:00.000Z",
  });
  expect(pat.status, `personal token of ${username}: ${JSON.stringify(pat.body)}`).toBe(201);
  return { token: pat.body.secret as string, session };
}

export type TestUser = { id: number; username: string; token: string; session: Session };

/** A user with a root role, logged in, with a personal access token. */
export async function userWithPat(
  t: TestApp,
  username: string,
  rootRole: string,
  options: Parameters<typeof createUser>[3] = {},
): Promise<TestUser> {
  const id = await createUser(t, username, rootRole, options);
  return { id, username, ...(await personalToken(t, username)) };
}

/** An API token's secret (`client`, `frontend` or `admin`), made with createApiToken. */
export async function apiToken(
  t: Api,
  type: string,
  environment: string,
  projects: string[],
  tokenName = `${type}-${environment}-${projects.join("-")}`,
): Promise<string> {
  const data = await gqlOk<{ createApiToken: { secret: string } }>(
    t,
    `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret } }`,
    { input: { tokenName, type, environment, projects } },
  );
  return data.createApiToken.secret;
}
