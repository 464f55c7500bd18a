import { RateLimiterMemory } from "rate-limiter-flexible";
import { RateLimitError } from "../../shared/errors.ts";
import { takePoint } from "../../shared/rate-limit.ts";

/**
 * Rate limits of SDK writes (register, metrics, Edge's bulk metrics), per minute: one count per
 * API token and one per client address, so that neither one public frontend token nor one
 * machine can flood the metrics tables. Counted in this node's memory (rate-limiter-flexible):
 * each node limits what reaches it, so N nodes accept up to N times the limit (D-35). Keys
 * expire with their minute, so memory stays bounded by the callers of the last minute.
 */
export type SdkWriteLimiter = {
  /** Counts one write; throws SdkWritesRateLimited (429, Retry-After) when a limit is used up. */
  take(tokenKey: string, address: string): Promise<void>;
};

/** A RateLimitError (429) that says when to try again (the Retry-After header). */
export class SdkWritesRateLimited extends RateLimitError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = "RateLimitError";
  }
}

const WINDOW_SECONDS = 60;
/** The app's one limiter (each node counts what reaches it). */
export function createSdkWriteLimiter(limits: {
  writesPerMinutePerToken: number;
  writesPerMinutePerAddress: number;
}): SdkWriteLimiter {
  const byToken = new RateLimiterMemory({
    keyPrefix: "sdk-writes-token",
    points: limits.writesPerMinutePerToken,
    duration: WINDOW_SECONDS,
  });
  const byAddress = new RateLimiterMemory({
    keyPrefix: "sdk-writes-address",
    points: limits.writesPerMinutePerAddress,
    duration: WINDOW_SECONDS,
  });
  return {
    async take(tokenKey, address) {
      await consume(byAddress, address, "address");
      await consume(byToken, tokenKey, "token");
    },
  };
}

async function consume(limiter: RateLimiterMemory, key: string, what: string): Promise<void> {
  const seconds = await takePoint(limiter, key);
  if (seconds > 0) {
    throw new SdkWritesRateLimited(
      seconds,
      `Too many SDK writes from this ${what}; try again in ${seconds} seconds.`,
    );
  }
}
