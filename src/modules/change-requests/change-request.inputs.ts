import { z } from "zod";
import { parameterValue, strategyInputFields } from "../feature-environments/strategy.inputs.ts";

/**
 * Shapes of the changes a change request can carry (spec 4.5). These check the form of a
 * payload when it is proposed; the direct-change services check the rest (the proposal is
 * dry-run through them, see propose.write.ts), so a change is refused exactly as a direct one.
 */
export const CHANGE_ACTIONS = [
  "updateSegment",
  "deleteSegment",
  "updateEnabled",
  "addStrategy",
  "updateStrategy",
  "deleteStrategy",
  "archiveFeature",
  "patchVariant",
  "reorderStrategy",
  "addDependency",
  "deleteDependency",
  "addReleasePlan",
  "deleteReleasePlan",
  "startMilestone",
] as const;

export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/**
 * Actions on a flag's release plan in the request's environment (Unleash's kinds, D-26): what
 * they do is the release-plans module's, given by the app (src/shared/change-kinds.ts).
 */
export const RELEASE_PLAN_ACTIONS = ["addReleasePlan", "deleteReleasePlan", "startMilestone"] as const;
export type ReleasePlanAction = (typeof RELEASE_PLAN_ACTIONS)[number];
/** The actions this module applies itself. */
export type OwnChangeAction = Exclude<ChangeAction, ReleasePlanAction>;

/** Actions on a project segment: they name no flag. */
export const SEGMENT_ACTIONS: ReadonlySet<ChangeAction> = new Set(["updateSegment", "deleteSegment"]);

// A strategy's fields as a direct change takes them (strategy.inputs.ts): a field added there is
// proposed too. Constraints and parameters are required, and constraints and variants checked as
// objects only, as when proposals came first: the dry run through the direct change checks the
// rest (propose.write.ts).
const strategyFields = {
  ...strategyInputFields,
  constraints: z.array(z.record(z.string(), z.unknown())),
  variants: z.array(z.record(z.string(), z.unknown())).nullish(),
  parameters: z.record(z.string(), parameterValue),
};
const segmentId = z.number().int().positive();

export const PAYLOAD_SCHEMAS: Record<ChangeAction, z.ZodType> = {
  updateSegment: z.looseObject({
    id: segmentId,
    name: z.string().min(1).max(255).optional(),
    description: z.string().nullish(),
    project: z.string().nullish(),
    constraints: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
  deleteSegment: z.looseObject({ id: segmentId }),
  updateEnabled: z.object({
    enabled: z.boolean(),
    shouldActivateDisabledStrategies: z.boolean().optional(),
  }),
  addStrategy: z.object({ name: z.string().min(1).max(255), ...strategyFields }),
  updateStrategy: z.object({
    id: z.string().min(1),
    name: z.string().min(1).max(255).optional(),
    ...strategyFields,
    constraints: strategyFields.constraints.optional(),
    parameters: strategyFields.parameters.optional(),
  }),
  deleteStrategy: z.looseObject({ id: z.string().min(1) }),
  archiveFeature: z.unknown().optional(),
  patchVariant: z.object({ variants: z.array(z.record(z.string(), z.unknown())) }),
  reorderStrategy: z.array(z.object({ id: z.string().min(1), sortOrder: z.number().int() })).min(1),
  addDependency: z.object({
    feature: z.string().min(1),
    enabled: z.boolean().default(true),
    variants: z.array(z.string()).optional(),
  }),
  deleteDependency: z.unknown().optional(),
  // Unleash's payloads; `safeguards` and `start` are Vexil's (the plan's safeguards, checked as
  // applyReleaseTemplate checks them, and whether its first milestone starts when applied).
  addReleasePlan: z.object({
    templateId: z.string().min(1).max(255),
    safeguards: z.array(z.unknown()).max(100).optional(),
    start: z.boolean().optional(),
  }),
  deleteReleasePlan: z.object({ planId: z.string().min(1).max(255) }),
  startMilestone: z.object({
    planId: z.string().min(1).max(255),
    milestoneId: z.string().min(1).max(255),
  }),
};

/** One proposed change as the client sends it. */
export const changeSchema = z.object({
  action: z.enum(CHANGE_ACTIONS),
  feature: z.string().min(1).nullish(),
  payload: z.unknown().optional(),
});
export type ChangeInput = z.input<typeof changeSchema>;

/** The body of spec 4.5: one change or an array of them. */
export const changesSchema = z.union([changeSchema.transform((c) => [c]), z.array(changeSchema).min(1)]);

export const configSchema = z.object({
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().int().min(0).max(10).default(1),
});

export const commentSchema = z.object({ text: z.string().trim().min(1).max(10_000) });

/** What a state change asks for (REST `PUT .../state`, GraphQL `changeChangeRequestState`). */
export const stateChangeSchema = z.object({
  state: z.enum(["In review", "Approved", "Rejected", "Cancelled", "Applied", "Scheduled"]),
  comment: z.string().trim().max(10_000).nullish(),
  scheduledAt: z.coerce.date().nullish(),
});
export type StateChange = z.input<typeof stateChangeSchema>;
