import { randomUUID } from "node:crypto";
import type { Config } from "./config.ts";
import type { Db } from "./db/database.ts";
import type { EventBus } from "./events/bus.ts";
import { createLoaders, type Loaders } from "./loaders.ts";
import { resolveToken, tokenFromHeader } from "./modules/access/credentials.ts";
import type { Principal } from "./modules/access/principal.ts";
import type { Logger } from "./shared/logger.ts";

/** Long-lived dependencies shared by every request; built once in createApp. */
export type AppDeps = {
  config: Config;
  db: Db;
  bus: EventBus;
  logger: Logger;
  /** Injectable clock, so tests can control time (schedules, expiry). */
  now: () => Date;
};

/** Per-request (or per-WebSocket-operation) context: who is calling, and request-scoped loaders. */
export type Context = AppDeps & {
  requestId: string;
  principal: Principal | null;
  loaders: Loaders;
};

/** Builds the context from an Authorization value; an invalid credential yields no principal. */
export async function createContext(
  deps: AppDeps,
  authorization: string | null | undefined,
): Promise<Context> {
  const secret = tokenFromHeader(authorization);
  const principal = secret ? await resolveToken(deps.db, secret, deps.now()) : null;
  return { ...deps, requestId: randomUUID(), principal, loaders: createLoaders(deps.db, principal) };
}
