import { z } from "zod";
import { payloadProblems } from "../src/events/stored-payloads.ts";

/** Response schemas of the spec's shapes, used for the OpenAPI document. */
export const tagSchema = z.object({ type: z.string(), value: z.string().min(2).max(50) });

/**
 * A tag in a request body: Unleash's tagSchema refuses other fields (400). Its `color` is
 * accepted and ignored (a tag's colour is its type's).
 */
export const tagBodySchema = z.strictObject({
  type: z.string(),
  value: z.string().min(2).max(50),
  color: z.string().nullish().describe("Accepted and ignored."),
});

/**
 * A tag as answers carry it: the 2-to-50 rule holds for what the API writes, not for rows that
 * imports or older data hold.
 */
export const storedTagSchema = z.object({ type: z.string(), value: z.string() });

/** A flag's tag where Unleash copies its type's colour into it (a flag's tags, flag search). */
export const flagTagSchema = storedTagSchema.extend({
  color: z.string().nullable().describe("The colour of the tag's type (`#RRGGBB`), null when it has none."),
});

/**
 * An event as answers and webhooks carry it. The `data` and `preData` of an event the recorder
 * wrote (every one has a summary) are those of its type's catalogue entry (src/events/catalogue.ts);
 * a row stored otherwise is answered as it is. The check runs where answers are checked against
 * their schema (tests), not in the OpenAPI document, which keeps payloads open objects.
 */
export const eventSchema = z
  .object({
    id: z.number().int().min(1),
    createdAt: z.string().datetime(),
    type: z.string(),
    createdBy: z.string(),
    createdByUserId: z.number().nullable(),
    environment: z.string().nullable(),
    project: z.string().nullable(),
    featureName: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    preData: z.record(z.string(), z.unknown()).nullable(),
    tags: z.array(storedTagSchema).nullable(),
    label: z.string().nullable(),
    summary: z.string().nullable(),
    groupType: z.string().nullable(),
    groupId: z.string().nullable(),
  })
  .superRefine((event, ctx) => {
    if (event.summary === null) return;
    for (const { path, message } of payloadProblems(event)) {
      ctx.addIssue({ code: "custom", path: path.split("."), message });
    }
  });

export const errorSchema = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  details: z.array(z.object({ message: z.string(), path: z.string().optional() })).optional(),
});

/** Strategies that use a segment or a context field (Unleash's `{strategies}` answer). */
export const strategyUsageSchema = z.object({
  strategies: z.array(
    z.object({
      id: z.string(),
      featureName: z.string(),
      projectId: z.string(),
      environment: z.string(),
      strategyName: z.string(),
    }),
  ),
});
