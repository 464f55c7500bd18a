import type { IncomingMessage, ServerResponse } from "node:http";
import pLimit from "p-limit";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Probes answer at once, whatever the queue: an orchestrator must see a busy server alive. */
const EXEMPT_PATHS = new Set(["/health", "/ready"]);

/**
 * At most `limit` requests are handled at once; the others wait their turn in arrival order.
 * Without it, every request a burst brings starts at once and they share the event loop:
 * each advances by one statement per turn, so a transaction holds its row locks for as many
 * turns as there are requests in flight, writers of the same flag queue behind it, and the
 * slowest answers take many times the mean.
 *
 * A request queues once its body has arrived (a client that sends slowly takes no slot); the
 * body is handed on as the request's `body`, which the fetch adapter under yoga reads instead
 * of the stream. A body over `maxBodyBytes` is not read further: the handler answers 413 for
 * it and the connection is closed. A request leaves its slot when its response starts (a
 * stream such as SSE then no longer counts) or its connection closes; one whose client went
 * away while it waited is not handled.
 *
 * A body is read only when `bodyMayBeRead` says so (src/http/credential-first.ts: a public
 * endpoint, or a credential that works). Otherwise the request is handed on at once, without a
 * slot and with its body unread: the surface answers it from its headers (401, 403), and the
 * connection is closed after that answer instead of draining a body nobody wants.
 */
export function admitRequests(
  handler: Handler,
  options: {
    /** At most this many at once (0: no limit). */
    limit: number;
    maxBodyBytes: number;
    bodyMayBeRead?: (request: IncomingMessage) => Promise<boolean>;
  },
): Handler {
  const admit = pLimit(options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY);
  const handle = (request: IncomingMessage, response: ServerResponse) =>
    new Promise<void>((leave) => {
      if (response.closed || !response.socket || response.socket.destroyed) return leave();
      response.once("close", leave);
      const writeHead = response.writeHead;
      response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        leave();
        return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
      } as ServerResponse["writeHead"];
      handler(request, response);
    });
  const receive = (request: IncomingMessage, response: ServerResponse) =>
    receiveBody(request, options.maxBodyBytes).then(
      (body) => {
        if (body) {
          (request as IncomingMessage & { body?: ReceivedBody }).body = new ReceivedBody(body);
          if (body.length > options.maxBodyBytes) response.once("finish", () => request.destroy());
        }
        void admit(() => handle(request, response));
      },
      () => request.destroy(),
    );
  return (request, response) => {
    if (EXEMPT_PATHS.has((request.url ?? "/").split("?")[0] as string)) return handler(request, response);
    if (!options.bodyMayBeRead || !hasBody(request)) return void receive(request, response);
    options.bodyMayBeRead(request).then(
      (mayRead) => {
        if (mayRead) return void receive(request, response);
        response.setHeader("connection", "close");
        response.once("finish", () => request.destroy());
        handler(request, response);
      },
      () => request.destroy(),
    );
  };
}

/**
 * A body already read, as the fetch adapter under yoga takes it: @whatwg-node/server uses a
 * request's `body` when `Object.keys(body).length > 0`, which for a Buffer lists every byte on
 * the event loop (3 ms for a 40 KB SDK metrics report, 200 ms for 1 MB); an async iterable with
 * one key is read as the same bytes.
 */
class ReceivedBody implements AsyncIterable<Buffer> {
  constructor(readonly bytes: Buffer) {}
  async *[Symbol.asyncIterator]() {
    yield this.bytes;
  }
}

/** The request's body (undefined when it has none), or its first `max + 1` bytes when longer. */
function receiveBody(request: IncomingMessage, max: number): Promise<Buffer | undefined> {
  if (!hasBody(request)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      request.off("data", onData).off("end", done).off("error", reject).off("close", onClose);
      resolve(Buffer.concat(chunks, Math.min(size, max + 1)));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        request.pause();
        done();
      }
    };
    const onClose = () => {
      if (!request.complete) reject(new Error("the client went away while sending"));
    };
    request.on("data", onData).once("end", done).once("error", reject).once("close", onClose);
  });
}

export function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0
  );
}
