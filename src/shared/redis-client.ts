import { createRequire } from "node:module";
import type { Redis, RedisOptions } from "ioredis";

const require = createRequire(import.meta.url);

/**
 * A Redis client. ioredis is loaded on the first call, that is only when REDIS_URL is set:
 * loading it costs a tenth of a second of every start of a node that does not use Redis.
 */
export function createRedisClient(url: string, options: RedisOptions): Redis {
  const ioredis = require("ioredis") as typeof import("ioredis");
  return new ioredis.Redis(url, options);
}
