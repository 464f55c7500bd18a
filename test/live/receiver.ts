import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A local HTTP receiver for webhook tests (127.0.0.1 only). The path picks the answer:
 * `/status/<code>` answers that code, `/flaky/<n>/<key>` answers 500 to the first n calls
 * for that key and 200 after, anything else answers 200.
 */
export async function startReceiver() {
  const received: Received[] = [];
  /** While true, requests are read but never answered (deliveries stay in flight). */
  const state = { holding: false };
  const calls = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body });
      for (const wake of waiters.splice(0)) wake();
      if (state.holding) return;
      const status = /^\/status\/(\d{3})/.exec(path)?.[1];
      const flaky = /^\/flaky\/(\d+)\/(.+)$/.exec(path);
      let code = status ? Number(status) : 200;
      if (flaky) {
        const seen = (calls.get(flaky[2] as string) ?? 0) + 1;
        calls.set(flaky[2] as string, seen);
        code = seen <= Number(flaky[1]) ? 500 : 200;
      }
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    state,
    /** Resolves once `predicate` holds for what was received (checked after each request). */
    async until(predicate: (all: Received[]) => boolean) {
      while (!predicate(received)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
