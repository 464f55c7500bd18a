/**
 * The address the request came from: the TCP peer, or behind a trusted reverse proxy the last
 * X-Forwarded-For entry (the one the proxy added; earlier entries are the client's to forge).
 * In-process requests (tests through `app.fetch`) have none.
 */
export function clientAddress(request: Request, serverContext: unknown, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  const socket = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req
    ?.socket;
  return socket?.remoteAddress ?? "in-process";
}
