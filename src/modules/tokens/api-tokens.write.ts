import type { ApiTokenPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { LimitExceededError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { hashSecret, newApiTokenSecret } from "../access/credentials.write.ts";
import { environmentExists } from "../environments/environment.read.ts";
import { apiTokenInput } from "./tokens.inputs.ts";

type ApiTokenRow = {
  id: number;
  tokenName: string;
  type: string;
  environment: string;
  projects: string[];
  expiresAt: Date | null;
  createdAt: Date;
};

/** What events say about an API token: never the secret or its hash. */
export function apiTokenEventData(t: ApiTokenRow): ApiTokenPayload {
  return {
    id: t.id,
    tokenName: t.tokenName,
    type: t.type,
    environment: t.environment,
    projects: t.projects,
    expiresAt: t.expiresAt?.toISOString() ?? null,
  };
}

async function assertScope(w: Write, environment: string, projects: string[]) {
  if (environment !== "*" && !(await environmentExists(w.tx, environment))) {
    throw new ValidationError(`environment: no environment named "${environment}"`, [
      { message: `environment "${environment}" does not exist`, path: "environment" },
    ]);
  }
  if (projects.includes("*") && projects.length > 1) {
    throw new ValidationError(`projects: "*" cannot be combined with project ids`);
  }
  const ids = projects.filter((p) => p !== "*");
  const found = await w.tx.project.count({ where: { id: { in: ids } } });
  if (found !== ids.length) throw new ValidationError(`projects: some of ${ids.join(", ")} do not exist`);
}

/**
 * Creates an API token and returns its secret, the only time it is visible (records
 * `api-token-created`). Client and frontend tokens are scoped to projects and one
 * environment; admin tokens to everything. Stops at the configured token limit.
 */
export async function createApiToken(w: Write, raw: unknown, limit: number) {
  const input = parseInput(apiTokenInput, raw);
  if (input.type !== "admin" && input.environment === "*") {
    throw new ValidationError("environment: client and frontend tokens need exactly one environment");
  }
  if (input.expiresAt && input.expiresAt <= w.now)
    throw new ValidationError("expiresAt: must be in the future");
  await assertScope(w, input.environment, input.projects);
  await lockLimitedResource(w.tx, "api-token");
  if ((await w.tx.apiToken.count()) >= limit) throw new LimitExceededError("api token", limit);
  const projectPart = input.projects.length === 1 ? (input.projects[0] as string) : "[]";
  const secret = newApiTokenSecret(projectPart, input.environment);
  const token = await w.tx.apiToken.create({
    data: {
      tokenName: input.tokenName,
      type: input.type,
      environment: input.environment,
      projects: input.projects,
      secretHash: hashSecret(secret),
      displayPrefix: secret.slice(0, secret.indexOf(".") + 1),
      expiresAt: input.expiresAt ?? null,
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  await recordEvent(w, {
    type: "api-token-created",
    project: input.projects.length === 1 && input.projects[0] !== "*" ? input.projects[0] : null,
    environment: input.environment === "*" ? null : input.environment,
    data: apiTokenEventData(token),
  });
  return { token, secret };
}

export async function apiTokenById(w: Write, id: number) {
  const token = await w.tx.apiToken.findUnique({ where: { id } });
  if (!token) throw new NotFoundError(`Could not find API token with id ${id}`);
  return token;
}

/** Revokes an API token at once (records `api-token-deleted`). */
export async function deleteApiToken(w: Write, id: number) {
  await lockRow(w.tx, "ApiToken", id);
  const token = await apiTokenById(w, id);
  await w.tx.apiToken.delete({ where: { id } });
  await recordEvent(w, {
    type: "api-token-deleted",
    environment: token.environment === "*" ? null : token.environment,
    preData: apiTokenEventData(token),
  });
}

/**
 * Sets when the API token with this secret expires (a past instant expires it at once; the
 * remembered credential is forgotten on the event). Records `api-token-updated` (data and
 * preData; nothing when unchanged). Returns null, changing nothing, for a secret no token has
 * (Unleash answers 200 then). `authorize` runs on the token before the change (type-based rights).
 */
export async function updateApiTokenExpiry(
  w: Write,
  secret: string,
  expiresAt: Date,
  authorize: (token: { type: string }) => void,
) {
  const found = await w.tx.apiToken.findFirst({ where: { secretHash: hashSecret(secret) } });
  if (!found) return null;
  authorize(found);
  await lockRow(w.tx, "ApiToken", found.id);
  // Read again under the lock: a concurrent delete may have come first (then: no such secret).
  const before = await w.tx.apiToken.findUnique({ where: { id: found.id } });
  if (!before) return null;
  const token = await w.tx.apiToken.update({ where: { id: found.id }, data: { expiresAt } });
  await recordEvent(w, {
    type: "api-token-updated",
    environment: token.environment === "*" ? null : token.environment,
    data: apiTokenEventData(token),
    preData: apiTokenEventData(before),
  });
  return token;
}
