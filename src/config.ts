import { z } from "zod";

/**
 * Every environment variable Vexil reads, parsed in one place. README.md's configuration
 * table mirrors this list; keep them together.
 */
const envSchema = z.object({
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4242),
  /** postgres:// URL of a PostgreSQL server; when absent, the embedded PGlite database is used. */
  DATABASE_URL: optionalUrl(
    ["postgres:", "postgresql:"],
    "must be a postgresql://user@host:port/database URL",
  ),
  /** Folder of the embedded PGlite database. */
  VEXIL_DATA_DIR: z.string().default("./data"),
  /** Public URL of this instance: used in links (reset-password, event summaries, ui-config). */
  VEXIL_URL: optionalUrl(["http:", "https:"], "must be an http:// or https:// URL"),
  BASE_URI_PATH: z.string().default(""),
  INIT_ADMIN_USERNAME: z.string().default("admin"),
  INIT_ADMIN_PASSWORD: z.string().optional(),
  /** Comma-separated admin API tokens accepted from the first request, e.g. `*:*.some-secret`. */
  INIT_ADMIN_API_TOKENS: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      for (const [i, token] of splitList(v ?? "").entries()) {
        if (!TOKEN_FORM.test(token)) {
          ctx.addIssue({
            code: "custom",
            message: `entry ${i + 1} ("${token.slice(0, 4)}…") is not in project:environment.secret form, e.g. *:*.some-secret`,
          });
        }
      }
    }),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** `json`: one JSON object per line (for a log shipper); `pretty`: coloured lines for a terminal. */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
  /** Milliseconds to wait for in-flight requests on shutdown before closing connections. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Reported as ui-config `authenticationType`. */
  AUTH_TYPE: z.enum(["open-source", "demo", "enterprise", "hosted", "custom", "none"]).default("open-source"),
  /** `true` turns off `POST /auth/simple/login` (API tokens keep working). */
  VEXIL_DISABLE_PASSWORD_AUTH: z.enum(["true", "false"]).default("false"),
  /** Comma-separated origins the front-end API accepts (ui-config `frontendApiOrigins`). */
  FRONTEND_API_ORIGINS: z.string().default("*"),
  /**
   * Comma-separated origins (scheme://host[:port]) whose browser pages may call the admin API,
   * GraphQL and /auth with credentials (CORS). Empty: none but the server's own origin.
   */
  VEXIL_CORS_ORIGINS: z.string().default(""),
  /** Largest request body accepted on /graphql, /api/admin and /auth (bytes); larger is 413. Also the largest WebSocket message. */
  VEXIL_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Milliseconds a WebSocket may stay open before its graphql-ws `connection_init` (then closed, 4408). */
  VEXIL_WS_INIT_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(3_000),
  /** WebSockets an address may have refused (bad or no credential, init timeout, oversized) per minute; then 429 at upgrade. */
  VEXIL_WS_REFUSALS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /**
   * How long SDK metrics wait in memory before they are written in one batch (ms); 0 writes
   * each request's batch before it is answered (see docs/decisions.md D-35).
   */
  VEXIL_METRICS_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Flags one SDK metrics report may carry; more is refused whole with 400. */
  VEXIL_METRICS_MAX_FLAGS: z.coerce.number().int().min(1).default(10_000),
  /** SDK writes (register, metrics, bulk) one API token may make per minute on this node (then 429). */
  VEXIL_SDK_WRITES_PER_MINUTE_PER_TOKEN: z.coerce.number().int().min(1).default(60_000),
  /** SDK writes one client address may make per minute on this node, whatever the token (then 429). */
  VEXIL_SDK_WRITES_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(6_000),
  /** Applications kept; reports naming a new one beyond it are dropped (D-35). */
  VEXIL_METRICS_MAX_APPLICATIONS: z.coerce.number().int().min(1).default(5_000),
  /** SDK instances kept; a new one beyond it is not recorded, its counts are (D-35). */
  VEXIL_METRICS_MAX_INSTANCES: z.coerce.number().int().min(1).default(20_000),
  /** Unknown-flag rows (name x application x environment) kept; the oldest go first (D-35). */
  VEXIL_METRICS_MAX_UNKNOWN_FLAGS: z.coerce.number().int().min(1).default(10_000),
  /**
   * Names of unknown flags SDK reports may bring in per minute on this node; reports' counts for
   * further unknown names are dropped at the edge, before they are buffered (D-35).
   */
  VEXIL_METRICS_UNKNOWN_FLAGS_PER_MINUTE: z.coerce.number().int().min(1).default(1_000),
  /** Hours per-application metrics and silent SDK instances are kept (D-35). */
  VEXIL_METRICS_RETENTION_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /**
   * Impact-metric series (metric x environment x application x label set) a node takes in per
   * minute; samples of further series are dropped at the edge (D-35).
   */
  VEXIL_IMPACT_METRICS_MAX_SERIES: z.coerce.number().int().min(1).default(10_000),
  /** How often a node evaluates release plans: safeguards and timed milestones (ms). */
  VEXIL_RELEASE_PLANS_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  /** OFREP evaluations one API token may ask for per second on this node (then 429 with Retry-After). */
  VEXIL_OFREP_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(1000),
  /** Open `/api/client/streaming` connections per API token on one node (then 429). */
  VEXIL_STREAMS_PER_TOKEN: z.coerce.number().int().min(1).default(100),
  /** Open `/api/client/streaming` connections on one node, all tokens together (then 429). */
  VEXIL_STREAMS_PER_NODE: z.coerce.number().int().min(1).default(1000),
  /**
   * Memory (MiB) a node gives what it keeps for SDKs: half to the scopes' configurations
   * (estimated from their records' size), half to prebuilt documents and evaluated answers
   * (their bytes, compressed forms included). The least recently used goes first.
   */
  VEXIL_SDK_CACHE_MB: z.coerce.number().positive().default(128),
  /** Lifetime of a login session. */
  VEXIL_SESSION_TTL_HOURS: z.coerce.number().positive().default(48),
  /**
   * scrypt's work factor for passwords: N = 2^cost. A new or changed password is hashed with it,
   * and a login whose stored hash was made with another cost is rehashed with it.
   */
  VEXIL_PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(17).default(15),
  /** Login attempts per account from one client address per minute (then 429); a success clears them. */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** redis:// URL: live events travel between nodes over Redis pub/sub instead of NOTIFY. */
  REDIS_URL: optionalUrl(["redis:", "rediss:"], "must be a redis:// or rediss:// URL"),
  /**
   * OpenTelemetry: traces are exported over OTLP/HTTP (JSON) when one of these is set (the
   * standard variables: the first is the base URL, `/v1/traces` is added; the second is the
   * whole URL). Other OTEL_* variables (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER,
   * OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_*) work as the OpenTelemetry SDK documents them.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(["http:", "https:"], "must be an http(s) URL"),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl(["http:", "https:"], "must be an http(s) URL"),
  /** Login attempts from one client address per minute, over all accounts (then 429). */
  LOGIN_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** `true`: the client address is the last X-Forwarded-For entry (set by your proxy). */
  VEXIL_TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  /** Most connections this process opens to PostgreSQL (its pool; the bus adds one). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  /**
   * HTTP requests handled at once; more wait in arrival order (0: no limit). Probes and
   * WebSockets are not counted, and a stream counts only until it starts.
   */
  VEXIL_MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(0).default(16),
  /** Let integrations call link-local / cloud metadata addresses (169.254.0.0/16, fd00:ec2::254...). */
  VEXIL_WEBHOOK_ALLOW_LINK_LOCAL: z.enum(["true", "false"]).default("false"),
  /** Milliseconds an integration request may take before it counts as failed. */
  VEXIL_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Slack's Web API, which Slack integrations post to (chat.postMessage); a test points it elsewhere. */
  VEXIL_SLACK_API_URL: z.string().url().default("https://slack.com/api"),
  /** Attempts per event and integration before the delivery is given up. */
  VEXIL_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
  /** Delay before the first retry; doubles with each further attempt (at most 15 minutes). */
  VEXIL_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).default(2_000),
  /** How often the delivery worker looks for due deliveries when nothing wakes it. */
  VEXIL_WORKER_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  UNLEASH_FEATURE_FLAGS_LIMIT: z.coerce.number().int().min(1).default(5000),
  UNLEASH_FEATURE_ENVIRONMENT_STRATEGIES_LIMIT: z.coerce.number().int().min(1).default(30),
  UNLEASH_CONSTRAINTS_LIMIT: z.coerce.number().int().min(1).default(30),
  UNLEASH_CONSTRAINT_VALUES_LIMIT: z.coerce.number().int().min(1).default(250),
  UNLEASH_SEGMENTS_LIMIT: z.coerce.number().int().min(1).default(300),
  UNLEASH_STRATEGY_SEGMENTS_LIMIT: z.coerce.number().int().min(1).default(5),
  UNLEASH_SEGMENT_VALUES_LIMIT: z.coerce.number().int().min(1).default(1000),
  UNLEASH_API_TOKENS_LIMIT: z.coerce.number().int().min(1).default(2000),
  UNLEASH_PROJECTS_LIMIT: z.coerce.number().int().min(1).default(500),
  UNLEASH_ENVIRONMENTS_LIMIT: z.coerce.number().int().min(1).default(50),
});

/** An admin token as Unleash writes it: `<project>:<environment>.<secret>`. */
const TOKEN_FORM = /^[^\s:.]+:[^\s:.]+\.\S+$/;

/** An optional URL variable: when set, a URL with one of `protocols`. */
function optionalUrl(protocols: string[], message: string) {
  return z
    .string()
    .optional()
    .refine((v) => !v || urlWithProtocol(v, protocols), { message });
}

function urlWithProtocol(value: string, protocols: string[]): boolean {
  try {
    const url = new URL(value);
    // A database or Redis URL may name a Unix socket instead of a host; a public URL may not.
    const needsHost = url.protocol === "http:" || url.protocol === "https:";
    return protocols.includes(url.protocol) && (url.host !== "" || !needsHost);
  } catch {
    return false;
  }
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The environment does not make a usable configuration: each problem names its variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; reason: string }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.reason}`).join("; ")}`);
  }
}

export type ResourceLimits = {
  featureFlags: number;
  featureEnvironmentStrategies: number;
  constraints: number;
  constraintValues: number;
  segments: number;
  strategySegments: number;
  segmentValues: number;
  apiTokens: number;
  projects: number;
  environments: number;
  actionSetActions: number;
  actionSetsPerProject: number;
  actionSetFilters: number;
  actionSetFilterValues: number;
  signalEndpoints: number;
  signalTokensPerEndpoint: number;
};

export type Config = {
  host: string;
  port: number;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string; poolMax: number };
  publicUrl: string;
  baseUriPath: string;
  initAdmin: { username: string; password?: string; apiTokens: string[] };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  logFormat: "json" | "pretty";
  shutdownGraceMs: number;
  limits: ResourceLimits;
  auth: {
    type: "open-source" | "demo" | "enterprise" | "hosted" | "custom" | "none";
    disablePasswordAuth: boolean;
    frontendApiOrigins: string[];
    sessionTtlMs: number;
    /** scrypt's N for new password hashes is 2^this (VEXIL_PASSWORD_HASH_COST). */
    passwordHashCost: number;
    loginRateLimitPerMinute: number;
    loginAddressRateLimitPerMinute: number;
    /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
    trustProxy: boolean;
  };
  redisUrl?: string;
  /** OpenTelemetry traces are exported (an OTLP endpoint is configured). */
  tracing: boolean;
  integrations: IntegrationConfig;
  http: HttpConfig;
  metrics: MetricsConfig;
  /** How often a node evaluates release plans (safeguards, timed milestones), ms. */
  releasePlansIntervalMs: number;
};

export type MetricsConfig = {
  /** Buffering window of SDK metrics (ms); 0 = stored before the 202. */
  flushMs: number;
  /** Most flags in one SDK metrics report. */
  maxFlags: number;
  /** SDK writes per minute and node, per API token and per client address. */
  writesPerMinutePerToken: number;
  writesPerMinutePerAddress: number;
  /** Most applications, SDK instances and unknown-flag rows kept. */
  maxApplications: number;
  maxInstances: number;
  maxUnknownFlags: number;
  /** Distinct unknown flag names admitted per minute and node; the rest are dropped at the edge. */
  unknownFlagsPerMinute: number;
  /** Hours per-application metrics, impact metrics and silent instances are kept. */
  retentionHours: number;
  /** Impact-metric series taken in per minute and node; the rest are dropped. */
  maxImpactSeries: number;
};

export type HttpConfig = {
  /** Origins allowed to make credentialed cross-origin calls (besides the server's own). */
  corsOrigins: string[];
  maxBodyBytes: number;
  /** Requests handled at once, the rest queued (0: no limit; src/http/admission.ts). */
  maxConcurrentRequests: number;
  /** OFREP requests per API token per second, per node. */
  ofrepRatePerSecond: number;
  /** Time a WebSocket has to send graphql-ws `connection_init`. */
  wsInitTimeoutMs: number;
  /** WebSockets refused before their credential was accepted, per client address and minute. */
  wsRefusalsPerMinute: number;
  /** Open SDK streams (`/api/client/streaming`) per API token and per node, on one node. */
  maxStreams: { perToken: number; perNode: number };
  /** Bytes kept for SDKs (VEXIL_SDK_CACHE_MB): scopes' configurations, and prebuilt documents. */
  sdkCacheBytes: { configurations: number; documents: number };
};

export type IntegrationConfig = {
  allowLinkLocal: boolean;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  /** Slack's Web API base URL (no trailing slash). */
  slackApiUrl: string;
};

/** Parses `env` (default: process.env) into a Config; throws a ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ variable: i.path.join("."), reason: i.message })),
    );
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX }
      : { kind: "pglite", dataDir: e.VEXIL_DATA_DIR },
    // Unset: where this process listens, as seen from this machine.
    publicUrl: (e.VEXIL_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    baseUriPath: e.BASE_URI_PATH,
    initAdmin: {
      username: e.INIT_ADMIN_USERNAME,
      password: e.INIT_ADMIN_PASSWORD,
      apiTokens: splitList(e.INIT_ADMIN_API_TOKENS ?? ""),
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    auth: {
      type: e.AUTH_TYPE,
      disablePasswordAuth: e.VEXIL_DISABLE_PASSWORD_AUTH === "true" || e.AUTH_TYPE === "none",
      frontendApiOrigins: e.FRONTEND_API_ORIGINS.split(",")
        .map((o) => o.trim())
        .filter(Boolean),
      sessionTtlMs: e.VEXIL_SESSION_TTL_HOURS * 3_600_000,
      passwordHashCost: e.VEXIL_PASSWORD_HASH_COST,
      loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
      loginAddressRateLimitPerMinute: e.LOGIN_ADDRESS_RATE_LIMIT_PER_MINUTE,
      trustProxy: e.VEXIL_TRUST_PROXY === "true",
    },
    redisUrl: e.REDIS_URL,
    tracing: Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT || e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    http: {
      corsOrigins: e.VEXIL_CORS_ORIGINS.split(",")
        .map((o) => o.trim().replace(/\/$/, ""))
        .filter(Boolean),
      maxBodyBytes: e.VEXIL_MAX_BODY_BYTES,
      maxConcurrentRequests: e.VEXIL_MAX_CONCURRENT_REQUESTS,
      ofrepRatePerSecond: e.VEXIL_OFREP_RATE_LIMIT_PER_SECOND,
      wsInitTimeoutMs: e.VEXIL_WS_INIT_TIMEOUT_MS,
      wsRefusalsPerMinute: e.VEXIL_WS_REFUSALS_PER_MINUTE,
      maxStreams: { perToken: e.VEXIL_STREAMS_PER_TOKEN, perNode: e.VEXIL_STREAMS_PER_NODE },
      sdkCacheBytes: {
        configurations: Math.ceil((e.VEXIL_SDK_CACHE_MB * 2 ** 20) / 2),
        documents: Math.ceil((e.VEXIL_SDK_CACHE_MB * 2 ** 20) / 2),
      },
    },
    metrics: {
      flushMs: e.VEXIL_METRICS_FLUSH_MS,
      maxFlags: e.VEXIL_METRICS_MAX_FLAGS,
      writesPerMinutePerToken: e.VEXIL_SDK_WRITES_PER_MINUTE_PER_TOKEN,
      writesPerMinutePerAddress: e.VEXIL_SDK_WRITES_PER_MINUTE_PER_ADDRESS,
      maxApplications: e.VEXIL_METRICS_MAX_APPLICATIONS,
      maxInstances: e.VEXIL_METRICS_MAX_INSTANCES,
      maxUnknownFlags: e.VEXIL_METRICS_MAX_UNKNOWN_FLAGS,
      unknownFlagsPerMinute: e.VEXIL_METRICS_UNKNOWN_FLAGS_PER_MINUTE,
      retentionHours: e.VEXIL_METRICS_RETENTION_HOURS,
      maxImpactSeries: e.VEXIL_IMPACT_METRICS_MAX_SERIES,
    },
    releasePlansIntervalMs: e.VEXIL_RELEASE_PLANS_INTERVAL_MS,
    integrations: {
      allowLinkLocal: e.VEXIL_WEBHOOK_ALLOW_LINK_LOCAL === "true",
      timeoutMs: e.VEXIL_WEBHOOK_TIMEOUT_MS,
      slackApiUrl: e.VEXIL_SLACK_API_URL.replace(/\/$/, ""),
      maxAttempts: e.VEXIL_WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.VEXIL_WEBHOOK_RETRY_BASE_MS,
      pollMs: e.VEXIL_WORKER_POLL_MS,
    },
    limits: {
      featureFlags: e.UNLEASH_FEATURE_FLAGS_LIMIT,
      featureEnvironmentStrategies: e.UNLEASH_FEATURE_ENVIRONMENT_STRATEGIES_LIMIT,
      constraints: e.UNLEASH_CONSTRAINTS_LIMIT,
      constraintValues: e.UNLEASH_CONSTRAINT_VALUES_LIMIT,
      segments: e.UNLEASH_SEGMENTS_LIMIT,
      strategySegments: e.UNLEASH_STRATEGY_SEGMENTS_LIMIT,
      segmentValues: e.UNLEASH_SEGMENT_VALUES_LIMIT,
      apiTokens: e.UNLEASH_API_TOKENS_LIMIT,
      projects: e.UNLEASH_PROJECTS_LIMIT,
      environments: e.UNLEASH_ENVIRONMENTS_LIMIT,
      // Actions and signals are not built yet; reported with Unleash's defaults (reference §12).
      actionSetActions: 10,
      actionSetsPerProject: 5,
      actionSetFilters: 5,
      actionSetFilterValues: 25,
      signalEndpoints: 5,
      signalTokensPerEndpoint: 5,
    },
  };
}
