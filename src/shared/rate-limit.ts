import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";

/**
 * Counts one use of `key`: 0 when it was within its window's points, else the whole seconds
 * (at least 1) before the window lets it in again, for a 429's Retry-After. rate-limiter-flexible
 * rejects with a RateLimiterRes when the points are used up; any other rejection (a store that
 * failed) is thrown, so that the caller's error path answers it.
 */
export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return retryAfterSeconds(rejection);
    throw rejection;
  }
}

/** The whole seconds (at least 1) until `used`'s window ends. */
export function retryAfterSeconds(used: RateLimiterRes): number {
  return Math.max(1, Math.ceil(used.msBeforeNext / 1000));
}
