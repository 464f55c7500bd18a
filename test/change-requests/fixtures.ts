import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { hashSecret } from "../../src/modules/access/credentials.write.ts";
import type { TestApp } from "../helpers/app.ts";

export type TestUser = { id: number; token: string; username: string };

/** A user with a personal access token, made directly in the database. */
export async function createUser(t: TestApp, username: string, rootRole: "Admin" | "Editor" | "Viewer") {
  const secret = `user:${randomBytes(28).toString("hex")}`;
  const user = await t.database.prisma.user.create({ data: { username, rootRole } });
  await t.database.prisma.personalAccessToken.create({
    data: {
      userId: user.id,
      description: "test",
      secretHash: hashSecret(secret),
      expiresAt: new Date("2100-01-01T00:00:00Z"),
    },
  });
  return { id: user.id, token: secret, username } satisfies TestUser;
}

export async function createFlag(t: TestApp, name: string, project = "default") {
  const res = await t.gql(
    `mutation($p: String!, $n: String!) { createFeature(project: $p, input: { name: $n }) { name } }`,
    {
      p: project,
      n: name,
    },
  );
  expect(res.errors).toBeUndefined();
}

/** A strategy stored directly (the strategy services live in another slice). */
export async function createStrategy(t: TestApp, feature: string, environment: string, name = "default") {
  return t.database.prisma.featureStrategy.create({
    data: { featureName: feature, projectId: "default", environmentName: environment, strategyName: name },
  });
}

export async function configure(t: TestApp, environment: string, requiredApprovals: number, enabled = true) {
  const res = await t.rest(
    "PUT",
    `/api/admin/projects/default/environments/${environment}/change-requests/config`,
    {
      changeRequestsEnabled: enabled,
      requiredApprovals,
    },
  );
  expect(res.status).toBe(204);
}

export async function propose(t: TestApp, environment: string, body: unknown, token?: string) {
  return t.rest(
    "POST",
    `/api/admin/projects/default/environments/${environment}/change-requests`,
    body,
    token,
  );
}

export async function setState(t: TestApp, id: number, body: Record<string, unknown>, token?: string) {
  return t.rest("PUT", `/api/admin/projects/default/change-requests/${id}/state`, body, token);
}

export async function eventsOf(t: TestApp, type: string) {
  return t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } });
}
