import { createHash } from "node:crypto";
import type pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from "rate-limiter-flexible";
import type { Config } from "../../config.ts";
import { RateLimitError } from "../../shared/errors.ts";
import { takePoint } from "../../shared/rate-limit.ts";
import { createRedisClient } from "../../shared/redis-client.ts";

/**
 * Password-login throttling (rate-limiter-flexible), counted before the password is hashed:
 * - per client address, over every account: one address cannot try many accounts;
 * - per account and address: one address cannot keep guessing one account.
 * There is deliberately no count per account alone: anyone could then lock any account out,
 * and the right password from another address must keep working.
 * The counters live where every node sees them: Redis with REDIS_URL, else PostgreSQL (the
 * app's pool, table `rate_limit`) with DATABASE_URL, else this process's memory (PGlite runs
 * one process). Counters expire with their window, so memory and the table stay bounded.
 */
export type LoginLimiter = {
  /** Counts one attempt; throws RateLimitError (with `retryAfterSeconds`) when a limit is used up. */
  take(address: string, account: string): Promise<void>;
  /** The password was right: the attempt is given back and the account's count from this address cleared. */
  succeeded(address: string, account: string): Promise<void>;
  close(): Promise<void>;
};

export type LoginLimitStore =
  | { kind: "memory" }
  | { kind: "postgres"; pool: pg.Pool }
  | { kind: "redis"; url: string };

export type LoginLimits = {
  /** Attempts per account from one address per minute. */
  perAccountAndAddress: number;
  /** Attempts from one address per minute, whatever the account. */
  perAddress: number;
};

/** The configured limits (LOGIN_RATE_LIMIT_PER_MINUTE and its per-address twin). */
export function loginLimitsOf(config: Pick<Config, "auth">): LoginLimits {
  return {
    perAccountAndAddress: config.auth.loginRateLimitPerMinute,
    perAddress: config.auth.loginAddressRateLimitPerMinute,
  };
}

const WINDOW_SECONDS = 60;

/** A RateLimitError (429, `RateLimitError`) that knows when to try again (Retry-After). */
export class LoginRateLimited extends RateLimitError {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many login attempts; try again in ${retryAfterSeconds} seconds.`);
    this.name = "RateLimitError";
  }
}

export function createLoginLimiter(store: LoginLimitStore, limits: LoginLimits): LoginLimiter {
  const redis = store.kind === "redis" ? createRedisClient(store.url, { enableOfflineQueue: false }) : null;
  redis?.on("error", () => undefined); // ioredis reconnects; a failing store falls back to memory
  // Commands are not queued while Redis is away (they fail over to memory at once), so the first
  // attempts wait for the first connection: otherwise each node would count them on its own.
  const connected = new Promise<void>((resolve) => {
    if (!redis) return resolve();
    redis.once("ready", resolve);
    redis.once("error", () => resolve());
  });
  const limiter = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const options = { keyPrefix, points, duration: WINDOW_SECONDS };
    if (store.kind === "memory") return new RateLimiterMemory(options);
    const shared = {
      ...options,
      // While the shared store is unreachable, each node limits on its own.
      insuranceLimiter: new RateLimiterMemory(options),
      // A key over its limit is refused from memory for the rest of the window: a flood does
      // not reach the store.
      inMemoryBlockOnConsumed: points + 1,
      inMemoryBlockDuration: WINDOW_SECONDS,
    };
    if (redis) return new RateLimiterRedis({ ...shared, storeClient: redis });
    const pool = (store as { pool: pg.Pool }).pool;
    // The table comes from a migration (prisma/schema.prisma, model RateLimit).
    return new RateLimiterPostgres({
      ...shared,
      storeClient: pool,
      storeType: "pool",
      tableName: "rate_limit",
      tableCreated: true,
    });
  };
  const byAddress = limiter("login-address", limits.perAddress);
  const byAccount = limiter("login-account", limits.perAccountAndAddress);

  return {
    async take(address, account) {
      await connected;
      const seconds =
        (await takePoint(byAddress, addressKey(address))) ||
        (await takePoint(byAccount, accountKey(address, account)));
      if (seconds > 0) throw new LoginRateLimited(seconds);
    },
    async succeeded(address, account) {
      await Promise.all([
        byAddress.reward(addressKey(address), 1),
        byAccount.delete(accountKey(address, account)),
      ]);
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** Keys are hashed: fixed length for the store, and no usernames kept in clear. */
function addressKey(address: string): string {
  return digest(address);
}

function accountKey(address: string, account: string): string {
  return digest(`${account.trim().toLowerCase()}\u0000${address}`);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
