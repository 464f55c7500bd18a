import { RateLimiterMemory } from "rate-limiter-flexible";
import { retryAfterSeconds } from "../shared/rate-limit.ts";

/**
 * WebSockets refused before their credential was accepted (no or a bad credential: 4403, no
 * `connection_init` in time: 4408, an oversized first message: 1009), counted per client address
 * and minute. An address that used up its count gets its next upgrades answered 429 with
 * Retry-After before the handshake: a flood of sockets that never authenticate then costs the
 * server an HTTP answer each, not a handshake, a timer and the bytes the sender pushes meanwhile.
 * A socket whose credential is accepted is never counted (D-15).
 */
export type SocketRefusals = {
  /** Seconds until `address` may open a WebSocket again; 0 when it may now. */
  retryAfterSeconds(address: string): Promise<number>;
  /** Counts one socket of `address` that closed without its credential being accepted. */
  count(address: string): void;
};

export function createSocketRefusals(perMinutePerAddress: number): SocketRefusals {
  const limiter = new RateLimiterMemory({
    keyPrefix: "ws-refusals",
    points: perMinutePerAddress,
    duration: 60,
  });
  return {
    async retryAfterSeconds(address) {
      const used = await limiter.get(address);
      if (!used || used.consumedPoints < perMinutePerAddress) return 0;
      return retryAfterSeconds(used);
    },
    count(address) {
      // Over its points the limiter rejects; the count that matters is already reached.
      limiter.consume(address).catch(() => {});
    },
  };
}
