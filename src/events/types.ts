import type { Event } from "../generated/prisma/client.ts";

/** An event row as stored (spec 2.10); `id` is a bigint identity. */
export type StoredEvent = Event;
