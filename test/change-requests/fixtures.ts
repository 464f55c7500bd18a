import { expect } from "vitest";
import type { TestApp } from "../helpers/app.ts";
import type { TestUser } from "../helpers/builders.ts";

/** The change that turns a flag on (or off) in the request's environment. */
export const enableChange = (feature: string, enabled = true) => ({
  action: "updateEnabled",
  feature,
  payload: { enabled },
});

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

/** A change request `author` proposed and sent to review; returns its id. */
export async function submitted(t: TestApp, environment: string, change: unknown, author: TestUser) {
  const draft = await propose(t, environment, change, author.token);
  expect(draft.status, JSON.stringify(draft.body)).toBe(200);
  const id = draft.body.id as number;
  expect((await setState(t, id, { state: "In review" }, author.token)).status).toBe(200);
  return id;
}

/** A submitted change request, then approved by each of `approvers` (the last approval makes it Approved). */
export async function approved(
  t: TestApp,
  environment: string,
  change: unknown,
  author: TestUser,
  approvers: TestUser[],
) {
  const id = await submitted(t, environment, change, author);
  for (const approver of approvers) {
    expect((await setState(t, id, { state: "Approved" }, approver.token)).status).toBe(200);
  }
  return id;
}
