// One process of bench/streaming-scale.ts's load generator (started by it with an IPC channel,
// never on its own): it opens SDK streams (`GET /api/client/streaming`) or graphql-ws
// subscriptions on a loopback server, and notes when each receives the change a round of the
// parent's toggles makes. The parent spreads the connections over several of these processes,
// so the generator's own event loop is not what a latency measures.
//
// Commands (from the parent): open-sse, open-ws, arm (a toggle is about to be sent: note the
// next change each connection receives), collect (wait until every connection noted one, or
// the timeout; answer the times), close. Times are `performance.timeOrigin + performance.now()`,
// comparable across the processes of one machine.
import { request } from "node:http";
import WebSocket from "ws";

export type ClientCommand =
  | { type: "open-sse"; url: string; token: string; count: number; concurrency: number }
  | {
      type: "open-ws";
      url: string;
      token: string;
      /** Subscriptions per socket, one entry per socket. */
      sockets: number[];
      query: string;
      concurrency: number;
    }
  | { type: "arm" }
  | { type: "collect"; timeoutMs: number }
  | { type: "close" };

export type ClientReport =
  | { type: "opened"; ready: number; failed: number; statuses: Record<string, number> }
  | { type: "armed" }
  /** When each connection (SSE) or subscription (WS) received the change; NaN: not (yet). */
  | { type: "collected"; sse: number[]; ws: number[] }
  | { type: "closed" };

const now = () => performance.timeOrigin + performance.now();
/** A marker may be cut between two reads: this much of the previous read is searched again. */
const TAIL = 32;

/** What each connection received since the last arm (NaN: nothing yet), and whether it is still open. */
class Receipts {
  times: number[] = [];
  armed = false;
  add(): number {
    this.times.push(Number.NaN);
    return this.times.length - 1;
  }
  note(i: number) {
    if (this.armed && Number.isNaN(this.times[i])) this.times[i] = now();
  }
  arm() {
    this.times.fill(Number.NaN);
    this.armed = true;
  }
  get missing() {
    return this.times.reduce((n, t) => (Number.isNaN(t) ? n + 1 : n), 0);
  }
}

const sse = new Receipts();
const ws = new Receipts();
const closers: (() => void)[] = [];

/** Runs `count` tasks, at most `concurrency` at a time. */
async function pooled(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Opens one SDK stream; resolves with its status once it got its hydration (or failed). */
function openStream(url: string, token: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(`${url}/api/client/streaming`, {
      headers: { authorization: token, accept: "text/event-stream" },
      agent: false,
    });
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(String(res.statusCode));
      }
      const index = sse.add();
      let hydrated = false;
      let tail = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const text = tail + chunk;
        tail = text.slice(-TAIL);
        if (!hydrated && text.includes("unleash-connected")) {
          hydrated = true;
          resolve("200");
        }
        if (text.includes("event: unleash-updated")) sse.note(index);
      });
      res.on("close", () => resolve(hydrated ? "200" : "closed"));
      closers.push(() => req.destroy());
    });
    req.on("error", (error) => resolve(`error ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    req.end();
  });
}

/** Opens one graphql-ws socket with `subscriptions` subscriptions of `query`; resolves once it sent them. */
function openSocket(url: string, token: string, subscriptions: number, query: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
      perMessageDeflate: false,
    });
    const indexes = Array.from({ length: subscriptions }, () => ws.add());
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: token } }));
    });
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: unknown };
      if (message.type === "connection_ack") {
        indexes.forEach((_, i) => {
          socket.send(JSON.stringify({ id: String(i), type: "subscribe", payload: { query } }));
        });
        resolve("ack");
      } else if (message.type === "next") {
        ws.note(indexes[Number(message.id)] as number);
      } else if (message.type === "error") {
        console.error(`subscription error: ${JSON.stringify(message.payload)}`);
      }
    });
    socket.on("close", (code) => resolve(`closed ${code}`));
    socket.on("error", (error) => resolve(`error ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    closers.push(() => socket.terminate());
  });
}

async function handle(command: ClientCommand): Promise<ClientReport> {
  switch (command.type) {
    case "open-sse": {
      const statuses: Record<string, number> = {};
      await pooled(command.count, command.concurrency, async () => {
        const status = await openStream(command.url, command.token);
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
      const ready = statuses["200"] ?? 0;
      return { type: "opened", ready, failed: command.count - ready, statuses };
    }
    case "open-ws": {
      const statuses: Record<string, number> = {};
      let ready = 0;
      await pooled(command.sockets.length, command.concurrency, async (i) => {
        const subscriptions = command.sockets[i] as number;
        const status = await openSocket(command.url, command.token, subscriptions, command.query);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === "ack") ready += subscriptions;
      });
      const total = command.sockets.reduce((a, b) => a + b, 0);
      return { type: "opened", ready, failed: total - ready, statuses };
    }
    case "arm":
      sse.arm();
      ws.arm();
      return { type: "armed" };
    case "collect": {
      const deadline = now() + command.timeoutMs;
      while ((sse.missing > 0 || ws.missing > 0) && now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      sse.armed = false;
      ws.armed = false;
      return { type: "collected", sse: sse.times, ws: ws.times };
    }
    case "close":
      for (const close of closers.splice(0)) close();
      sse.times = [];
      ws.times = [];
      return { type: "closed" };
  }
}

process.on("message", (command: ClientCommand) => {
  handle(command).then(
    (report) => process.send?.(report),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});
// The parent's end ends this process too.
process.on("disconnect", () => process.exit(0));
