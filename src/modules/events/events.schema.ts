import { builder, countedConnection } from "../../builder.ts";
import type { TagPayload } from "../../events/payloads.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { integerKey, NODE_ID, type NodeAccess } from "../../shared/node-ids.ts";
import { pageRequest } from "../../shared/pagination.ts";
import { EVENT_ORDER, type EventSearchFilter, eventConnection } from "./event-search.read.ts";
import { visibilityOf } from "./visibility.logic.ts";

type EventAccess = NodeAccess<Pick<StoredEvent, "project">>;

const EventTagRef = builder.objectRef<TagPayload>("EventTag").implement({
  description: "A tag of the flag an event is about, as it was when the event happened.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "Tag type." }),
    value: t.exposeString("value", { description: "Tag value." }),
  }),
});

export const EventRef = builder.prismaNode("Event", {
  description: "An entry of the audit log (spec 2.10).",
  id: { ...NODE_ID, field: "id" },
  nullable: true,
  findUnique: (id) => ({ id: BigInt(integerKey(id)) }),
  // the one rule of every read of the audit log
  extensions: {
    nodeAccess: { readable: (ctx, event) => visibilityOf(ctx).accept(event) } satisfies EventAccess,
  },
  fields: (t) => ({
    databaseId: t.expose("id", { type: "Long", description: "Strictly increasing id." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it happened." }),
    type: t.exposeString("type", { description: "Event type (spec section 6)." }),
    createdBy: t.exposeString("createdBy", { description: "Username, email or token name of the actor." }),
    createdByUserId: t.exposeInt("createdByUserId", {
      nullable: true,
      description: "Actor's user id (-42: admin API token, -1337: the system).",
    }),
    environment: t.exposeString("environment", { nullable: true, description: "Environment concerned." }),
    project: t.exposeString("project", { nullable: true, description: "Project concerned." }),
    featureName: t.exposeString("featureName", { nullable: true, description: "Flag concerned." }),
    data: t.expose("data", { type: "JSON", nullable: true, description: "The new state of the subject." }),
    preData: t.expose("preData", {
      type: "JSON",
      nullable: true,
      description: "The previous state of the subject.",
    }),
    tags: t.field({
      type: [EventTagRef],
      description: "The flag's tags at the time.",
      resolve: (e) => (e.tags ?? []) as TagPayload[],
    }),
    label: t.exposeString("label", { nullable: true, description: "Short human-readable name of the type." }),
    summary: t.exposeString("summary", {
      nullable: true,
      description: "Markdown sentence describing the event.",
    }),
    groupType: t.exposeString("groupType", {
      nullable: true,
      description: "`transaction` or `change-request`.",
    }),
    groupId: t.exposeString("groupId", { nullable: true, description: "Shared by events written together." }),
  }),
});

const EventConnection = countedConnection("EventConnection", EventRef, "Events matching, across all pages.");

export const EventFilterInput = builder.inputType("EventFilter", {
  description: "Narrows the audit log; every given list is ORed within, lists are ANDed together.",
  fields: (t) => ({
    features: t.stringList({ description: "Flag names." }),
    projects: t.stringList({ description: "Project ids." }),
    types: t.stringList({ description: "Event types." }),
    environments: t.stringList({ description: "Environment names." }),
  }),
});

export type EventFilter = typeof EventFilterInput.$inferInput;

export function eventWhere(filter: EventFilter | null | undefined): Prisma.EventWhereInput {
  return {
    ...(filter?.features ? { featureName: { in: filter.features } } : {}),
    ...(filter?.projects ? { project: { in: filter.projects } } : {}),
    ...(filter?.types ? { type: { in: filter.types } } : {}),
    ...(filter?.environments ? { environment: { in: filter.environments } } : {}),
  };
}

/** The stream filter as an event-search filter (each given list is IS_ANY_OF). */
function searchFilterOf(filter: EventFilter | null | undefined): EventSearchFilter {
  const anyOf = (values: readonly string[] | null | undefined) =>
    values ? { operator: "IS_ANY_OF" as const, values: [...values] } : null;
  return {
    feature: anyOf(filter?.features),
    project: anyOf(filter?.projects),
    type: anyOf(filter?.types),
    environment: anyOf(filter?.environments),
  };
}

export function matchesFilter(event: StoredEvent, filter: EventFilter | null | undefined): boolean {
  const has = (list: readonly string[] | null | undefined, value: string | null) =>
    !list || (value !== null && list.includes(value));
  return (
    has(filter?.features, event.featureName) &&
    has(filter?.projects, event.project) &&
    has(filter?.types, event.type) &&
    has(filter?.environments, event.environment)
  );
}

builder.queryField("events", (t) =>
  t.field({
    type: EventConnection,
    description: "The audit log, newest first.",
    authScopes: { authenticated: true },
    args: {
      filter: t.arg({ type: EventFilterInput, description: "What to include." }),
      first: t.arg.int({ description: "Page size (default 50, at most 1000)." }),
      after: t.arg.string({ description: "Cursor of the last event of the previous page." }),
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({ description: "Cursor of the first event of the next page (pages backwards)." }),
      offset: t.arg.int({ description: "Events to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx) => {
      const request = pageRequest(args, { defaultLimit: 50, maxLimit: 1000 }, EVENT_ORDER);
      return eventConnection(
        ctx.db,
        ctx.services.eventTextCounts,
        searchFilterOf(args.filter),
        request,
        visibilityOf(ctx),
      );
    },
  }),
);
