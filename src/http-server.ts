import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { initContextCache } from "@pothos/core";
import { type ExecutionArgs, GraphQLError } from "graphql";
import { MessageType } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { App, Yoga } from "./app.ts";
import { type Context, type Credentials, principalOf, socketCredentials } from "./context.ts";
import { admitRequests } from "./http/admission.ts";
import { upgradeAddress } from "./http/client-address.ts";
import { bodyMayBeRead } from "./http/credential-first.ts";
import { createSocketRefusals } from "./http/socket-refusals.ts";
import { tracedHandler } from "./http/tracing.ts";
import { isSdkCredential } from "./modules/access/check.logic.ts";
import type { DirectNext } from "./modules/live/shared-results.plugin.ts";

/**
 * Bytes a WebSocket may have unsent before direct sends stop: later events then take
 * graphql-ws's own path, which waits for each write, so a subscriber that does not read falls
 * behind in its bounded buffer and is ended (src/modules/live/follow.live.ts).
 */
const DIRECT_SEND_BACKLOG = 64 * 1024;

export type RunningServer = {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), closes sockets. */
  close(graceMs?: number): Promise<void>;
};

type Enveloped = ReturnType<Yoga["getEnveloped"]>;

/**
 * Binds `host:port` and answers every request 503 (`/health` 200) until `listen` serves the app
 * on it. The process entry binds first, so that a port in use stops the start before anything
 * is created or printed.
 */
/**
 * Serves `app` over HTTP and graphql-ws (WebSocket) on the same port and path: on `bound`
 * (from bindPort) or on a new server listening on `host:port`. A WebSocket whose
 * credentials (socketCredentials) are missing or invalid, or a client or frontend token, is
 * refused at connect (4403).
 */
export async function listen(app: App, host: string, port: number, bound?: Server): Promise<RunningServer> {
  const { yoga, scope: deps } = app;
  const server = bound ?? createServer();
  server.removeAllListeners("request");
  const { maxConcurrentRequests: limit, maxBodyBytes, wsInitTimeoutMs } = deps.config.http;
  const admitted = admitRequests(yoga, {
    limit,
    maxBodyBytes,
    bodyMayBeRead: (request) =>
      bodyMayBeRead(deps, request, (method, path) => app.routes.isPublic(method, path)),
  });
  // A trace's request span includes the time the request waited for admission.
  server.on("request", deps.config.tracing ? tracedHandler(admitted) : admitted);
  // A message larger than a request body may be is refused from its frame header, before it is
  // buffered (close 1009); ws's own default would hold 100 MiB per socket before any credential.
  const refusals = createSocketRefusals(deps.config.http.wsRefusalsPerMinute);
  const addressOf = (request: IncomingMessage) => upgradeAddress(request, deps.config.auth.trustProxy);
  // Sockets whose credential was judged: accepted, or refused and counted at once (so that the
  // address's next upgrade already sees the count). The rest are counted when they close.
  const judged = new WeakSet<WebSocket>();
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: maxBodyBytes,
    verifyClient: ({ req }, done) =>
      void refusals.retryAfterSeconds(addressOf(req)).then((seconds) =>
        seconds === 0
          ? done(true)
          : done(false, 429, "Too many refused WebSocket connections from this address", {
              "Retry-After": String(seconds),
            }),
      ),
  });
  wss.on("connection", (socket, request) => {
    adaptSocketEvents(socket);
    // The address, not the request, is kept for as long as the socket is open.
    const address = addressOf(request);
    socket.once("close", () => {
      if (!judged.has(socket)) refusals.count(address);
    });
  });
  const ws = useServer<Record<string, unknown>, { credentials: Credentials }>(
    {
      // A socket that sends no connection_init in time is closed (4408): the phase before its
      // credential is checked is short.
      connectionInitWaitTimeout: wsInitTimeoutMs,
      onConnect: async (ctx) => {
        const credentials = socketCredentials(ctx.connectionParams, ctx.extra.request.headers.cookie);
        const principal = await principalOf(deps, credentials);
        // SDK tokens may run nothing here (graphql-gate.ts): refused like no credential.
        judged.add(ctx.extra.socket);
        if (principal === null || isSdkCredential(principal)) {
          refusals.count(addressOf(ctx.extra.request));
          return false;
        }
        // The socket keeps its credentials (each operation's context is made from them), not its
        // upgrade request: with its headers and parser state that is a kilobyte per open socket.
        // (Set to undefined, not deleted: a deletion turns the object into a 256-byte dictionary.)
        ctx.extra.credentials = credentials;
        (ctx.extra as { request?: IncomingMessage }).request = undefined;
        return true;
      },
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: subscribeLettingGo,
      onSubscribe: async (ctx, id, params) => {
        // What an operation's context takes from its socket: the credentials (app.ts makes the
        // context from them) and a sender of prebuilt messages; not the socket's own state.
        const enveloped = yoga.getEnveloped({
          ...initContextCache(),
          connectionParams: ctx.connectionParams,
          extra: { credentials: ctx.extra.credentials },
          params,
          directNext: directNextTo(ctx.extra.socket, id),
        });
        // A query over the limits is refused by parse (src/http/graphql-limits.ts): an error
        // for this operation, not a closed socket.
        let document: ReturnType<typeof enveloped.parse>;
        try {
          document = enveloped.parse(params.query);
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: enveloped,
        };
        return args;
      },
    },
    wss,
    12_000,
  );
  if (!server.listening) await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // A keep-alive connection whose response ends from now on (an in-flight request, an SSE
      // stream the shutdown ended) closes at once instead of idling for keepAliveTimeout (5 s).
      server.keepAliveTimeout = 1;
      await ws.dispose();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/**
 * Subscribes through envelop with a context of the operation's own whose prototype is the
 * context made for it: envelop, graphql-ws and the plugins keep that object (and `args`) for as
 * long as the subscription lasts. A subscription whose events are executed with a context
 * shared by its key (shared-results.plugin.ts) needs its own no more once subscribed: the
 * object then stops inheriting it, and `args` drops the enveloped instance, so a waiting
 * subscriber holds neither its context, its loaders, Pothos's caches of it, nor the enveloped
 * instance (about 5 KiB each).
 */
async function subscribeLettingGo(args: ExecutionArgs) {
  const enveloped = args.rootValue as Enveloped;
  const own = Object.create(args.contextValue as Context) as Context;
  args.contextValue = own;
  const result = await enveloped.subscribe(args);
  if (own.sharesResults) {
    Object.setPrototypeOf(own, null);
    args.rootValue = undefined;
  }
  return result;
}

/**
 * graphql-ws prints every error of a socket, with its stack, on stderr. A message over
 * `maxPayload` is an expected refusal (ws has already closed the socket with 1009), and an
 * attacker must not turn each of its messages into a log line: that error is not passed on.
 * A message is handed on as text (graphql-ws reads nothing else): its handler lasts as long as
 * the subscription it starts, and would keep the received Buffer that long.
 */
function adaptSocketEvents(socket: WebSocket): void {
  const emit = socket.emit.bind(socket);
  socket.emit = ((event: string, ...args: unknown[]) =>
    event === "error" && (args[0] as { code?: string })?.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
      ? false
      : event === "message"
        ? emit(event, String(args[0]), ...args.slice(1))
        : emit(event, ...args)) as WebSocket["emit"];
}

/**
 * Sends subscription `id` a graphql-ws `next` message built around an already serialised
 * payload: what graphql-ws would send, without its per-message promise chain and stringify.
 */
export function directNextTo(
  socket: Pick<WebSocket, "readyState" | "OPEN" | "bufferedAmount" | "send">,
  id: string,
): DirectNext {
  const head = `{"id":${JSON.stringify(id)},"type":"${MessageType.Next}","payload":`;
  return (payloadJson) => {
    if (socket.readyState !== socket.OPEN || socket.bufferedAmount > DIRECT_SEND_BACKLOG) return false;
    socket.send(`${head}${payloadJson}}`);
    return true;
  };
}
