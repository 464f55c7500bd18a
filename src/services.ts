import type { AppBase } from "./context.ts";
import type { Remembered } from "./events/remembered.ts";
import { createRememberedTokens, type RememberedTokens } from "./modules/access/remembered-tokens.cache.ts";
import { createSdkStreams, type SdkStreams } from "./modules/client-api/streaming.live.ts";
import {
  type ClientFeaturesCache,
  createClientFeaturesCache,
} from "./modules/client-features/client-features.cache.ts";
import { createSdkDocuments, type SdkDocuments } from "./modules/client-features/sdk-documents.cache.ts";
import {
  createImpactMetricsBuffer,
  type ImpactMetricsBuffer,
} from "./modules/client-metrics/impact-metrics.cache.ts";
import { createMetricsIngestor, type MetricsIngestor } from "./modules/client-metrics/ingestor.cache.ts";
import { createMetricsRoom, type MetricsRoom } from "./modules/client-metrics/metrics-room.cache.ts";
import {
  createSdkWriteLimiter,
  type SdkWriteLimiter,
} from "./modules/client-metrics/sdk-write-limits.cache.ts";
import { createTextCounts, type TextCounts } from "./modules/events/event-text.cache.ts";
import { EventFeed } from "./modules/live/feed.live.ts";
import { createRevocationWatch, type RevocationWatch } from "./modules/live/revocation.live.ts";
import { rememberMaintenanceMode } from "./modules/maintenance/maintenance.cache.ts";
import { rememberFrontendOrigins } from "./modules/ui-config/frontend-origins.cache.ts";
import { type InstanceId, rememberInstanceId } from "./modules/ui-config/instance-id.cache.ts";
import type { Logger } from "./shared/logger.ts";

/**
 * What one app (one node) keeps in memory for as long as it runs, built once by createApp from
 * the dependencies it is given and reached through the request context (`ctx.services`), by
 * plugins and jobs (`app.scope`), and by tests. No module keeps such state in a registry of its
 * own. Each entry says what it is built from and what it holds; "bus" means it listens to the
 * bus's notices (and stops on close). `closeServices` ends what holds timers or a buffer.
 */
export type AppServices = {
  /**
   * The node's view of the audit log, followed by every subscription, SDK stream and live
   * playground (db, bus, logger). Polls the log (a timer) while someone follows it. Its close
   * ends every open subscription: shutdown closes it before draining requests.
   */
  feed: EventFeed;
  /**
   * Open subscriptions watched for a revoked or changed credential (db, bus, feed). From the first
   * subscription on: follows the feed, the bus's access notices and a backstop timer.
   */
  revocation: RevocationWatch;
  /**
   * SDK configurations per scope, one snapshot per version, least recently read forgotten first
   * (db, bus; config: half of VEXIL_SDK_CACHE_MB).
   */
  clientFeatures: ClientFeaturesCache;
  /**
   * SDK answers prepared once per version (client-features documents per filter, frontend and
   * OFREP bulk answers per context) with their compressions (config: half of VEXIL_SDK_CACHE_MB).
   */
  sdkDocuments: SdkDocuments;
  /**
   * Open SDK streams, capped per token and in all (db, feed, clientFeatures, sdkDocuments, config:
   * the limits). From the first stream on: one feed listener and a keep-alive timer for all of them.
   */
  sdkStreams: SdkStreams;
  /** API tokens resolved in the last minute, bounded (db, bus, now). */
  tokens: RememberedTokens;
  /** Maintenance mode as last read (db, bus). */
  maintenanceMode: Remembered<boolean>;
  /** The frontend API's CORS origins as last read (db, bus, config). */
  frontendOrigins: Remembered<string[]>;
  /** The instance's id, read once (db). */
  instanceId: InstanceId;
  /** Counts of free-text event searches, bounded. */
  eventTextCounts: TextCounts;
  /**
   * SDK metrics reports buffered before their batch is written (db, config, logger). A timer
   * while reports wait (buffered mode); its close writes what is left: shutdown closes it once
   * requests are drained, before the database.
   */
  metricsIngestor: MetricsIngestor;
  /** The applications and instances kept, against their caps (db, config, logger). */
  metricsRoom: MetricsRoom;
  /**
   * SDK impact metrics summed per minute before they are written (db, config, logger): a timer
   * while rows wait, the series admitted this minute; its close writes what is left.
   */
  impactMetrics: ImpactMetricsBuffer;
  /** Per-minute counts of SDK writes per token and per address (config). */
  sdkWriteLimiter: SdkWriteLimiter;
};

/** Builds an app's services: nothing starts (no timer, no query) before a service is used. */
export function createServices(deps: AppBase): AppServices {
  const feed = new EventFeed(deps.db, deps.bus, deps.logger);
  const clientFeatures = createClientFeaturesCache(deps, deps.config.http.sdkCacheBytes.configurations);
  const sdkDocuments = createSdkDocuments(deps.config.http.sdkCacheBytes.documents);
  return {
    feed,
    revocation: createRevocationWatch({ ...deps, feed }),
    clientFeatures,
    sdkDocuments,
    sdkStreams: createSdkStreams({
      ...deps,
      feed,
      clientFeatures,
      sdkDocuments,
      limits: deps.config.http.maxStreams,
    }),
    tokens: createRememberedTokens(deps),
    maintenanceMode: rememberMaintenanceMode(deps),
    frontendOrigins: rememberFrontendOrigins(deps),
    instanceId: rememberInstanceId(deps.db),
    eventTextCounts: createTextCounts(),
    metricsIngestor: createMetricsIngestor(deps),
    metricsRoom: createMetricsRoom(deps),
    impactMetrics: createImpactMetricsBuffer(deps),
    sdkWriteLimiter: createSdkWriteLimiter(deps.config.metrics),
  };
}

/**
 * Closes every service: open subscriptions end, timers stop, bus listeners go, and the buffered
 * SDK metrics are written (a failure is logged: the other services still close). The
 * dependencies the app was given (database, bus, login limiter) stay open for their owner.
 */
export async function closeServices(services: AppServices, logger: Logger): Promise<void> {
  services.feed.close();
  services.revocation.close();
  services.clientFeatures.close();
  services.tokens.close();
  services.maintenanceMode.close();
  services.frontendOrigins.close();
  await services.metricsIngestor
    .close()
    .catch((error) => logger.error("SDK metrics not written at shutdown", { error: String(error) }));
  await services.impactMetrics
    .close()
    .catch((error) => logger.error("impact metrics not written at shutdown", { error: String(error) }));
}
