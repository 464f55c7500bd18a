import type { Context } from "../../context.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { actorOf } from "../../shared/actor.ts";
import {
  type ChangeRequestsRow,
  openChangeRequestsSql,
} from "../change-requests/open-change-requests.read.ts";
import { favoriteFeaturesSql } from "../favorites/favorites.read.ts";
import { type CountsRow, countsSql, lastHourStart } from "../features/last-hour-counts.read.ts";

export type PageExtras = { favorites: string[]; counts: CountsRow[]; changeRequests: ChangeRequestsRow[] };

/**
 * What a page of flags shows besides its rows (the caller's favourites, the last hour's counts,
 * open change requests), as one JSON value over `names`: the search statement selects it for
 * its own page, saving three round trips (see feature-search-items.read.ts).
 */
export function pageExtrasSql(ctx: Context, names: Prisma.Sql): Prisma.Sql {
  const rows = (query: Prisma.Sql) =>
    Prisma.sql`(SELECT COALESCE(json_agg(x), '[]'::json) FROM (${query}) x)`;
  return Prisma.sql`json_build_object(
    'favorites', (SELECT COALESCE(json_agg(x."featureName"), '[]'::json)
                  FROM (${favoriteFeaturesSql(actorOf(ctx.principal).userId, names)}) x),
    'counts', ${rows(countsSql(lastHourStart(ctx.now()), names))},
    'changeRequests', ${rows(openChangeRequestsSql(names))})`;
}
