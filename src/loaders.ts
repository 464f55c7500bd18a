import type { Db } from "./db/database.ts";
import type { Principal } from "./modules/access/principal.types.ts";
import { openChangeRequestsFact } from "./modules/change-requests/open-change-requests.read.ts";
import { collaboratorsFact } from "./modules/events/collaborators.read.ts";
import { favoriteFeatureFact, favoritesLoaders } from "./modules/favorites/favorites.read.ts";
import { flagStalenessCountsLoader } from "./modules/features/flag-statistics.read.ts";
import { lastHourCountsFact, lastHourStart } from "./modules/features/last-hour-counts.read.ts";
import { actorOf } from "./shared/actor.ts";
import { flagFactsLoader } from "./shared/flag-facts.ts";

/**
 * Per-request batch loaders for fields Prisma's query planning cannot fold into the parent
 * query (per-user data, aggregates over events). Created fresh for every request and for
 * every subscription event, so nothing is cached across callers. Wiring only: each loader, and
 * each fact of the one-statement flag-facts loader, is served by the module owning its tables.
 * The loaders are made on first use: most operations (SDK routes, a subscription to events,
 * whose context lives as long as it does) use none.
 */
export function createLoaders(db: Db, principal: Principal | null, now: () => Date): Loaders {
  return new LazyLoaders(db, principal, now);
}

/** The loaders, each made when first asked for (a class: no closures per instance). */
class LazyLoaders implements Loaders {
  private built: Loaders | undefined;
  constructor(
    private readonly db: Db,
    private readonly principal: Principal | null,
    private readonly now: () => Date,
  ) {}
  private get loaders(): Loaders {
    this.built ??= buildLoaders(this.db, this.principal, this.now);
    return this.built;
  }
  get isFavoriteFeatureOfActor() {
    return this.loaders.isFavoriteFeatureOfActor;
  }
  get featureCollaborators() {
    return this.loaders.featureCollaborators;
  }
  get openChangeRequestIds() {
    return this.loaders.openChangeRequestIds;
  }
  get lastHourCounts() {
    return this.loaders.lastHourCounts;
  }
  get isFavoriteProjectOfActor() {
    return this.loaders.isFavoriteProjectOfActor;
  }
  get projectFlagCounts() {
    return this.loaders.projectFlagCounts;
  }
}

function buildLoaders(db: Db, principal: Principal | null, now: () => Date) {
  // Favourites of the acting user: an admin API token acts as the shared admin-token user (-42).
  const actorId = actorOf(principal).userId;
  const fact = flagFactsLoader(db, {
    favorite: favoriteFeatureFact(actorId),
    collaborators: collaboratorsFact,
    openChangeRequests: openChangeRequestsFact,
    lastHourCounts: lastHourCountsFact(() => lastHourStart(now())),
  });
  return {
    isFavoriteFeatureOfActor: fact("favorite"),
    featureCollaborators: fact("collaborators"),
    /** Ids of change requests still in progress (Draft included) touching a flag, per environment. */
    openChangeRequestIds: fact("openChangeRequests"),
    /** yes/no evaluation counts of the hour buckets that started within the last hour, per environment of a flag. */
    lastHourCounts: fact("lastHourCounts"),
    ...favoritesLoaders(db, actorId),
    /** Each project's active flags: all, stale, potentially stale. */
    projectFlagCounts: flagStalenessCountsLoader(db),
  };
}

export type Loaders = ReturnType<typeof buildLoaders>;
