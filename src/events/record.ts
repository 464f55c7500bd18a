import { isDeepStrictEqual } from "node:util";
import { Prisma } from "../generated/prisma/client.ts";
import type { Write } from "../shared/write.ts";
import type { EventType } from "./catalogue.ts";
import { eventLabel, eventSummary } from "./format.ts";
import type { StoredEvent } from "./types.ts";

export type EventInput = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: unknown;
  preData?: unknown;
  /** Defaults to the flag's current tags when `featureName` is set. */
  tags?: { type: string; value: string }[];
};

/**
 * The one event recorder. Writes the event in the caller's transaction (so a rollback leaves
 * no event), queues a delivery (transactional outbox) for every enabled addon it matches, and
 * queues it for publishing after commit. A change whose `data` equals its
 * `preData` changed nothing and records nothing (returns null).
 */
export async function recordEvent(w: Write, input: EventInput): Promise<StoredEvent | null> {
  if (
    input.data !== undefined &&
    input.preData !== undefined &&
    isDeepStrictEqual(input.data, input.preData)
  ) {
    return null;
  }
  const tags = input.tags ?? (input.featureName ? await currentTags(w, input.featureName) : []);
  const base = {
    type: input.type,
    createdBy: w.actor.name,
    project: input.project ?? null,
    environment: input.environment ?? null,
    featureName: input.featureName ?? null,
  };
  const row = await w.tx.event.create({
    data: {
      ...base,
      createdByUserId: w.actor.userId,
      data: toJson(input.data),
      preData: toJson(input.preData),
      tags,
      label: eventLabel(input.type),
      summary: eventSummary(base, w.publicUrl),
      groupType: w.groupType,
      groupId: w.groupId,
    },
  });
  const event = row as StoredEvent;
  await queueDeliveries(w, event);
  w.recorded.push(event);
  return event;
}

/**
 * Outbox rows for the enabled addons that react to this event (spec §6 rule 2, reference
 * §8.3): its type is listed, and its project and environment are in scope (an empty list or a
 * leading `*` means all; an event without a project or environment passes that filter).
 */
async function queueDeliveries(w: Write, event: StoredEvent) {
  const addons = await w.tx.addon.findMany({
    where: { enabled: true, events: { has: event.type } },
    select: { id: true, projects: true, environments: true },
  });
  const matching = addons.filter(
    (a) => inScope(a.projects, event.project) && inScope(a.environments, event.environment),
  );
  if (matching.length === 0) return;
  await w.tx.addonDelivery.createMany({
    data: matching.map((a) => ({ addonId: a.id, eventId: event.id, nextAttemptAt: w.now })),
  });
}

function inScope(scope: string[], value: string | null): boolean {
  return value === null || scope.length === 0 || scope[0] === "*" || scope.includes(value);
}

async function currentTags(w: Write, featureName: string) {
  const rows = await w.tx.featureTag.findMany({
    where: { featureName },
    orderBy: [{ tagType: "asc" }, { tagValue: "asc" }],
  });
  return rows.map((t) => ({ type: t.tagType, value: t.tagValue }));
}

function toJson(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (value === undefined || value === null) return Prisma.DbNull;
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}
