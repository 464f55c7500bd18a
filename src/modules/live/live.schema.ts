import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { createLoaders } from "../../loaders.ts";
import { AuthenticationRequired, ForbiddenOperation } from "../../shared/errors.ts";
import { EventFilterInput, EventRef, eventWhere, matchesFilter } from "../events/events.schema.ts";
import { eventVisibility } from "../events/visibility.logic.ts";
import { featureInProjectForQuery } from "../features/feature.read.ts";
import { FeatureRef } from "../features/feature.schema.ts";
import { followEvents, withCurrentFirst } from "./follow.live.ts";
import { shareResultsAmong } from "./shared-results.plugin.ts";

builder.subscriptionField("events", (t) =>
  t.field({
    type: EventRef,
    description:
      "Events matching the filter, in id order: with `afterId`, first the stored ones after that id, then every " +
      "one committed from now on, with no gap and no duplicate between the two. Only events the credential may " +
      "read are delivered (project-scoped credentials: events of their projects). A subscriber that falls too " +
      "far behind is ended with an error naming the last id it got, to resubscribe from there.",
    authScopes: { authenticated: true },
    // An event's fields depend on the event only; subscribers that may read the same events
    // and ask the same thing share one execution per event.
    extensions: shareResultsAmong((ctx) => eventVisibility(principalOf(ctx)).audience),
    args: {
      filter: t.arg({ type: EventFilterInput, description: "What to deliver." }),
      afterId: t.arg({ type: "Long", description: "Replay the stored events after this id first." }),
    },
    subscribe: (_root, args, ctx) => {
      const { where, accept: visible } = eventVisibility(principalOf(ctx));
      // The predicate lasts as long as the subscription: it keeps the filter, not the arguments.
      const filter = args.filter;
      return followEvents(ctx.db, ctx.services.feed, {
        afterId: args.afterId ?? null,
        where: { AND: [eventWhere(filter), where] },
        accept: (event) => visible(event) && matchesFilter(event, filter),
      });
    },
    resolve: (event) => event,
  }),
);

builder.subscriptionField("featureChanged", (t) =>
  t.field({
    type: FeatureRef,
    nullable: true,
    description:
      "The flag as it is now (null while it does not exist), then again after each committed change to it " +
      "(each event about it), for live dashboards.",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ required: true, description: "Project of the flag." }),
      feature: t.arg.string({ required: true, description: "Flag name." }),
    },
    subscribe: (_root, args, ctx) => {
      if (!eventVisibility(principalOf(ctx)).accept({ project: args.project })) {
        throw new ForbiddenOperation(`This credential cannot read project "${args.project}".`);
      }
      const changes = followEvents(ctx.db, ctx.services.feed, {
        where: { featureName: args.feature, project: args.project },
        accept: (event) => event.featureName === args.feature && event.project === args.project,
      });
      return withCurrentFirst(changes);
    },
    resolve: (_event, args, ctx, info) => {
      // Fresh loaders per delivery: a subscription's context lives long, its answers must not.
      ctx.loaders = createLoaders(ctx.db, ctx.principal, ctx.now);
      const query = queryFromInfo({ context: ctx, info, typeName: "Feature" }) as object;
      return featureInProjectForQuery(ctx.db, query, args.feature, args.project);
    },
  }),
);

function principalOf(ctx: Context) {
  if (!ctx.principal) throw new AuthenticationRequired();
  return ctx.principal;
}
