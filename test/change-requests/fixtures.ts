import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";
import {
  addStrategy,
  createFlag as createFlagWith,
  type TestUser,
  userWithPat,
} from "../helpers/builders.ts";

export type { TestUser };

/** A user with a root role and a personal access token, made over the public API. */
export async function createUser(t: TestApp, username: string, rootRole: "Admin" | "Editor" | "Viewer") {
  return userWithPat(t, username, rootRole);
}

export async function createFlag(t: TestApp, name: string, project = "default") {
  await createFlagWith(t, name, { project });
}

/**
 * A strategy added with the admin token, which holds SKIP_CHANGE_REQUEST, so it works in an
 * environment that requires change requests too; returns the strategy with its `id`.
 */
export async function createStrategy(t: TestApp, feature: string, environment: string, name = "default") {
  return addStrategy(t, feature, { name }, environment) as Promise<{ id: string }>;
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
