import type { IncomingMessage } from "node:http";

/**
 * The address the request came from: the TCP peer, or behind a trusted reverse proxy the last
 * X-Forwarded-For entry (the one the proxy added; earlier entries are the client's to forge).
 * In-process requests (tests through `app.fetch`) have none.
 */
export function clientAddress(request: Request, serverContext: unknown, trustProxy: boolean): string {
  const socket = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req
    ?.socket;
  return addressOf(request.headers.get("x-forwarded-for"), socket?.remoteAddress, trustProxy);
}

/** clientAddress of a WebSocket upgrade, which reaches the server before any Fetch Request exists. */
export function upgradeAddress(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = request.headers["x-forwarded-for"];
  return addressOf(
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    request.socket.remoteAddress,
    trustProxy,
  );
}

function addressOf(
  forwardedFor: string | null | undefined,
  peer: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? "in-process";
}
