import type { Plugin } from "graphql-yoga";
import type pg from "pg";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type AppScope, callerOfRequest } from "../context.ts";
import { can } from "../modules/access/grant-check.logic.ts";
import { passwordsChecked } from "../modules/access/passwords.logic.ts";
import { deliveryCountsByStatus } from "../modules/addons/addon.read.ts";
import { AuthenticationRequired, NoAccessError } from "../shared/errors.ts";
import { operationOf, surfaceOf } from "./labels.ts";

/** Seconds: from a cached answer (1 ms) to a slow search (5 s). */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

let processRegister: Registry | undefined;

/**
 * The process' own metrics (CPU, memory, GC, event-loop delay, password hashes checked), collected
 * once per process however many apps it runs (the tests run one per file). prom-client starts a GC
 * observer and an event-loop monitor for them and never stops either: collected per app, every
 * closed app stayed reachable from the observer through its registry's gauges (its database with
 * it), and each GC called one more observer.
 */
function processMetrics(): Registry {
  if (!processRegister) {
    processRegister = new Registry();
    collectDefaultMetrics({ register: processRegister, prefix: "vexil_" });
    new Counter({
      name: "vexil_password_checks_total",
      help: "Password hashes checked (logins, password changes and resets): the work logins cost.",
      registers: [processRegister],
      collect() {
        this.reset();
        this.inc(passwordsChecked());
      },
    });
  }
  return processRegister;
}

/**
 * `/metrics` in Prometheus' text format (prom-client): HTTP durations per surface, GraphQL
 * operation durations per type, the process' own metrics, the PostgreSQL pool (connections in
 * use, idle, callers waiting), open live subscriptions, the event bus lag (insert to hand-out
 * to this node's subscribers), and the webhook queue (pending and given-up deliveries). Readable with an admin credential only (Prometheus sends it as
 * `authorization: credentials` in its scrape config): the figures describe the whole instance.
 */
export function useMetrics(deps: AppScope, pool?: pg.Pool): Plugin<Record<string, unknown>> {
  // A registry of this app's own: the process' metrics, then the app's below.
  const register = Registry.merge([processMetrics()]);
  const http = new Histogram({
    name: "vexil_http_request_duration_seconds",
    help: "Time to the start of the answer, per surface, method and status class.",
    labelNames: ["surface", "method", "status"],
    buckets: DURATION_BUCKETS,
    registers: [register],
  });
  const operations = new Histogram({
    name: "vexil_graphql_operation_duration_seconds",
    help: "GraphQL execution time per operation type (REST routes run GraphQL operations too).",
    labelNames: ["type"],
    buckets: DURATION_BUCKETS,
    registers: [register],
  });
  const errors = new Counter({
    name: "vexil_graphql_errors_total",
    help: "GraphQL executions that answered errors, per operation type.",
    labelNames: ["type"],
    registers: [register],
  });
  new Gauge({
    name: "vexil_db_pool_connections",
    help: "PostgreSQL pool connections: total, idle, and callers waiting for one (server mode).",
    labelNames: ["state"],
    registers: [register],
    collect() {
      if (!pool) return;
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
  new Gauge({
    name: "vexil_live_subscriptions",
    help: "Open GraphQL subscriptions (WebSocket and SSE) on this node.",
    registers: [register],
    collect() {
      this.set(deps.services.revocation.open());
    },
  });
  const feedLag = new Histogram({
    name: "vexil_event_bus_lag_seconds",
    help: "From an event's insert (just before commit, on any node) to its hand-out to this node's live subscribers.",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  deps.services.feed.observeLag((seconds) => feedLag.observe(seconds));
  new Gauge({
    name: "vexil_webhook_deliveries",
    help: "Integration deliveries waiting (pending) and given up (dead), all nodes.",
    labelNames: ["status"],
    registers: [register],
    async collect() {
      const rows = await deliveryCountsByStatus(deps.db);
      for (const status of ["pending", "dead"]) {
        this.set({ status }, rows.find((r) => r.status === status)?._count._all ?? 0);
      }
    },
  });
  sdkCacheMetrics(deps, register);
  /** `/metrics` for an admin credential (Prometheus sends it as `authorization: credentials`). */
  async function answerMetrics(request: Request, endResponse: (response: Response) => void) {
    const { principal } = await callerOfRequest(deps, request);
    if (!principal) throw new AuthenticationRequired();
    if (
      principal.kind === "client-token" ||
      principal.kind === "frontend-token" ||
      !can(principal, { permission: "ADMIN" })
    ) {
      throw new NoAccessError("ADMIN");
    }
    endResponse(
      new Response(await register.metrics(), { headers: { "content-type": register.contentType } }),
    );
  }
  const started = new WeakMap<Request, { at: number; path: string }>();
  return {
    onRequest({ request, url, endResponse }) {
      started.set(request, { at: performance.now(), path: url.pathname });
      // Synchronous for every other path: no promise per request.
      if (url.pathname === "/metrics") return answerMetrics(request, endResponse);
    },
    onResponse({ request, response }) {
      const since = started.get(request);
      if (since === undefined) return;
      http.observe(
        {
          surface: surfaceOf(since.path),
          method: request.method,
          status: `${Math.floor(response.status / 100)}xx`,
        },
        (performance.now() - since.at) / 1000,
      );
    },
    onExecute({ args }) {
      const begun = performance.now();
      const { type } = operationOf(args.document, args.operationName);
      return {
        onExecuteDone({ result }) {
          operations.observe({ type }, (performance.now() - begun) / 1000);
          if (result && "errors" in result && result.errors?.length) errors.inc({ type });
        },
      };
    },
  };
}

/**
 * What the node keeps for SDKs (D-32): the scopes' configurations and the prepared documents,
 * their bytes against their bounds (VEXIL_SDK_CACHE_MB), and how often each was built: a
 * configuration read that found a new version or the same one, a document serialised, a
 * compression made. Read from the services when scraped.
 */
function sdkCacheMetrics(deps: AppScope, register: Registry) {
  const { clientFeatures, sdkDocuments } = deps.services;
  const perCache = (name: string, help: string, configurations: () => number, documents: () => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["cache"],
      registers: [register],
      collect() {
        this.set({ cache: "configurations" }, configurations());
        this.set({ cache: "documents" }, documents());
      },
    });
  perCache(
    "vexil_sdk_cache_bytes",
    "Bytes kept for SDKs (configurations: estimated; documents: serialised and compressed bytes).",
    () => clientFeatures.stats().bytes,
    () => sdkDocuments.stats().bytes,
  );
  perCache(
    "vexil_sdk_cache_max_bytes",
    "The bound of each SDK cache (half of VEXIL_SDK_CACHE_MB each).",
    () => clientFeatures.stats().maxBytes,
    () => sdkDocuments.stats().maxBytes,
  );
  perCache(
    "vexil_sdk_cache_entries",
    "Scopes' configurations kept; documents and compressed forms kept.",
    () => clientFeatures.stats().scopes,
    () => sdkDocuments.stats().entries,
  );
  new Counter({
    name: "vexil_sdk_configuration_reads_total",
    help: "Reads of a scope's configuration from the database, by whether they found a new version.",
    labelNames: ["version"],
    registers: [register],
    collect() {
      const { reads, versions } = clientFeatures.stats();
      this.reset();
      this.inc({ version: "new" }, versions);
      this.inc({ version: "same" }, reads - versions);
    },
  });
  new Counter({
    name: "vexil_sdk_documents_serialised_total",
    help: "SDK documents and answers serialised (once per version, kind and filter or context while kept).",
    registers: [register],
    collect() {
      this.reset();
      this.inc(sdkDocuments.stats().serialised);
    },
  });
  new Counter({
    name: "vexil_sdk_document_compressions_total",
    help: "Compressions of SDK documents made, per encoding (once per document while kept).",
    labelNames: ["encoding"],
    registers: [register],
    collect() {
      const { compressed } = sdkDocuments.stats();
      this.reset();
      for (const [encoding, count] of Object.entries(compressed)) this.inc({ encoding }, count);
    },
  });
}
