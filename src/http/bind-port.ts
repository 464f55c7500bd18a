import { createServer, type Server } from "node:http";

/**
 * Listens on `host:port` before anything else starts, so a port that is taken ends the start
 * at once; until the app is mounted (http-server.ts, listen) it answers /health and
 * refuses everything else with 503.
 */
export async function bindPort(host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const health = request.url === "/health";
    response.writeHead(health ? 200 : 503, { "content-type": "application/json" });
    response.end(health ? '{"health":"GOOD"}' : '{"health":"BAD"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
