import { builder, countedConnection } from "../../builder.ts";
import { listWindow, pageRequest } from "../../shared/pagination.ts";
import { EqualityFilterInput } from "../search/search-filters.schema.ts";
import { EVENT_ORDER, eventConnection } from "./event-search.read.ts";
import { EventRef } from "./events.schema.ts";
import { visibilityOf } from "./visibility.logic.ts";

const EventTextScopeEnum = builder.enumType("EventTextScope", {
  description: "What the free-text `query` of event search looks in.",
  values: {
    PAYLOAD: { description: "The event's data, preData and tags (spec 4.4; trigram-indexed)." },
    TYPE_ACTOR_DATA: {
      description: "The event type, the creating user's name, username or email, and data (spec 4.13).",
    },
  },
});

const EventSearchFilterInput = builder.inputType("EventSearchFilter", {
  description: "Event search filters; all given filters must hold (AND).",
  fields: (t) => ({
    query: t.string({ description: "Case-insensitive substring (% and _ are literal)." }),
    queryScope: t.field({ type: EventTextScopeEnum, description: "Where `query` looks; default PAYLOAD." }),
    feature: t.field({ type: EqualityFilterInput, description: "Flag names (exact)." }),
    project: t.field({ type: EqualityFilterInput, description: "Project ids (exact)." }),
    type: t.field({ type: EqualityFilterInput, description: "Event types (exact)." }),
    environment: t.field({ type: EqualityFilterInput, description: "Environment names (exact)." }),
    createdBy: t.field({ type: EqualityFilterInput, description: "Creator user ids." }),
    from: t.string({ description: "First day (YYYY-MM-DD, UTC), inclusive." }),
    to: t.string({ description: "Last day (YYYY-MM-DD, UTC), inclusive." }),
    maxId: t.field({ type: "Long", description: "Only events with this id or older." }),
    until: t.field({
      type: "DateTime",
      description: "Only events created at or before this instant: the log as it was then (time travel).",
    }),
  }),
});

const EventSearchConnection = countedConnection(
  "EventSearchConnection",
  EventRef,
  "Events matching every filter, across all pages.",
);

builder.queryField("eventSearch", (t) =>
  t.field({
    type: EventSearchConnection,
    description: "Searches the audit log (spec 4.4), newest first.",
    authScopes: { authenticated: true },
    args: {
      filter: t.arg({ type: EventSearchFilterInput, description: "Filters, ANDed." }),
      first: t.arg.int({ description: "Page size (default 50, 1 to 1000)." }),
      after: t.arg.string({ description: "Cursor of the last event of the previous page." }),
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({ description: "Cursor of the first event of the next page (pages backwards)." }),
      offset: t.arg.int({ description: "Events to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx) => {
      const request = pageRequest(args, { defaultLimit: 50, maxLimit: 1000, minLimit: 1 }, EVENT_ORDER);
      return eventConnection(
        ctx.db,
        ctx.services.eventTextCounts,
        args.filter ?? {},
        request,
        visibilityOf(ctx),
      );
    },
  }),
);

builder.queryField("featureEvents", (t) =>
  t.prismaField({
    type: ["Event"],
    description:
      "A flag's newest events first (spec 4.8): 50 unless `first` (at most 1000) says otherwise, after " +
      "`offset`; empty for an unknown flag. `events(filter: {features: [...]})` also gives the total.",
    deprecationReason: "Use events(filter: { features: [name] }), which pages and counts.",
    authScopes: { authenticated: true },
    args: {
      feature: t.arg.string({ required: true, description: "Flag name." }),
      first: t.arg.int({ description: "How many (default 50, at most 1000)." }),
      offset: t.arg.int({ description: "Newest events to skip (default 0)." }),
    },
    resolve: (query, _root, args, ctx) => {
      const window = listWindow(args, { defaultLimit: 50, maxLimit: 1000 });
      return ctx.db.event.findMany({
        ...query,
        where: { AND: [{ featureName: args.feature }, visibilityOf(ctx).where] },
        orderBy: { id: "desc" },
        ...window,
      });
    },
  }),
);
