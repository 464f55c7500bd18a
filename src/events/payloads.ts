import { z } from "zod";

/**
 * The shapes event payloads (`data`, `preData`) share, as JSON: what `GET /api/admin/events`,
 * GraphQL `Event.data` and webhooks show. The catalogue (catalogue.ts) says which event carries
 * which; the functions of the modules that build them return these types, so a payload and its
 * schema cannot drift apart. Dates are ISO 8601 strings.
 */

const nullableString = z.string().nullable();

/** A `{type, value}` tag: `data` of feature-tagged and tag-created, an event's `tags`. */
export const tagPayload = z.object({ type: z.string(), value: z.string() });

/** A flag's own fields (feature-created, -metadata-updated, -deleted). */
export const flagPayload = z.object({
  name: z.string(),
  project: z.string(),
  type: z.string(),
  description: nullableString,
  stale: z.boolean(),
  impressionData: z.boolean(),
  createdAt: z.string(),
  archived: z.boolean(),
});

const constraintPayload = z.object({
  contextName: z.string(),
  operator: z.string(),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});

const variantValue = z.object({ type: z.string(), value: z.string() });

const strategyVariantPayload = z.object({
  name: z.string(),
  weight: z.number(),
  weightType: z.enum(["variable", "fix"]),
  stickiness: z.string(),
  payload: variantValue.optional(),
});

/** A flag named by another event: favorited, or the parent of a removed dependency. */
export const featureRefPayload = z.object({ feature: z.string() });
/** A project named by a favourite. */
export const projectRefPayload = z.object({ project: z.string() });
/** A strategy type named by its change (strategy-deleted, -deprecated, -reactivated). */
export const namePayload = z.object({ name: z.string() });

/** How a completed flag ended (feature-completed). */
export const completionPayload = z.object({
  status: z.enum(["kept", "discarded"]),
  statusValue: z.string().optional(),
  kept: z.boolean(),
});

/** A flag's strategies in one environment by id, in order (strategy-order-changed). */
export const strategyOrderPayload = z.object({ strategyIds: z.array(z.string()) });

/** A parent flag a flag depends on (feature-dependency-added). */
export const dependencyPayload = z.object({
  feature: z.string(),
  enabled: z.boolean(),
  variants: z.array(z.string()).optional(),
});

/** A strategy without its id: a project's default strategy (default-strategy-updated). */
export const strategyContentPayload = z.object({
  name: z.string(),
  title: nullableString,
  disabled: z.boolean(),
  sortOrder: z.number(),
  parameters: z.record(z.string(), z.string()),
  constraints: z.array(constraintPayload),
  variants: z.array(strategyVariantPayload),
  segments: z.array(z.number()),
});

/** A flag's strategy in one environment (feature-strategy-add, -update, -remove). */
export const strategyPayload = strategyContentPayload.extend({ id: z.string() });

/** A flag's variants in one environment (feature-environment-variants-updated). */
export const environmentVariantsPayload = z.object({
  variants: z.array(
    z.object({
      name: z.string(),
      weight: z.number(),
      weightType: z.enum(["variable", "fix"]).optional(),
      stickiness: z.string().optional(),
      payload: variantValue.optional(),
      overrides: z.array(z.object({ contextName: z.string(), values: z.array(z.string()) })).optional(),
    }),
  ),
});

/** A flag's link (feature-link-added, -updated, -removed). */
export const linkPayload = z.object({ url: z.string(), title: nullableString });

export const projectPayload = z.object({
  id: z.string(),
  name: z.string(),
  description: nullableString,
  mode: z.literal("open"),
  defaultStickiness: z.string(),
  featureLimit: z.number().nullable(),
  archived: z.boolean(),
});

/** A project created, with the environments it was given (project-created). */
export const createdProjectPayload = projectPayload.extend({ environments: z.array(z.string()) });

export const segmentPayload = z.object({
  id: z.number(),
  name: z.string(),
  description: nullableString,
  project: nullableString,
  constraints: z.array(constraintPayload),
  createdAt: z.string(),
});

export const environmentPayload = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number(),
});

export const contextFieldPayload = z.object({
  name: z.string(),
  description: nullableString,
  stickiness: z.boolean(),
  sortOrder: z.number(),
  legalValues: z.array(z.object({ value: z.string(), description: nullableString.optional() })),
  /** Only for a field of one project. */
  project: z.string().optional(),
});

export const tagTypePayload = z.object({
  name: z.string(),
  description: nullableString,
  icon: nullableString,
  color: nullableString,
});

export const featureTypePayload = z.object({
  id: z.string(),
  name: z.string(),
  description: nullableString,
  lifetimeDays: z.number().nullable(),
});

export const strategyDefinitionPayload = z.object({
  name: z.string(),
  title: nullableString,
  description: nullableString,
  editable: z.boolean(),
  deprecated: z.boolean(),
  parameters: z.array(
    z.object({ name: z.string(), type: z.string(), description: z.string(), required: z.boolean() }),
  ),
});

/** A user: never the password hash. */
export const userPayload = z.object({
  id: z.number(),
  name: nullableString,
  email: nullableString,
  username: nullableString,
  imageUrl: nullableString,
  rootRole: z.string(),
});

export const rolePayload = z.object({
  id: z.number(),
  name: z.string(),
  description: nullableString,
  type: z.string(),
  permissions: z.array(z.object({ name: z.string(), environment: nullableString })),
});

/** A project role given to or taken from a user (project-user-added, -removed). */
export const projectMemberPayload = z.object({
  userId: z.number(),
  roleId: z.number(),
  roleName: z.string(),
});

/** An API token: never its secret or hash. */
export const apiTokenPayload = z.object({
  id: z.number(),
  tokenName: z.string(),
  type: z.string(),
  environment: z.string(),
  projects: z.array(z.string()),
  expiresAt: nullableString,
});

export const personalTokenPayload = z.object({
  id: z.number(),
  userId: z.number(),
  description: z.string(),
  expiresAt: z.string(),
});

/** An invite link: never its secret. */
export const invitePayload = z.object({
  name: z.string(),
  expiresAt: z.string(),
  enabled: z.boolean(),
  role: z.string(),
});

/** A user who signed up with an invite link (public-signup-token-user-added). */
export const signedUpPayload = z.object({
  userId: z.number(),
  name: nullableString,
  email: nullableString,
  token: z.string(),
});

/** An addon: never its parameters (they may hold secrets). */
export const addonPayload = z.object({
  id: z.number(),
  provider: z.string(),
  description: nullableString,
  enabled: z.boolean(),
  events: z.array(z.string()),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: z.string(),
});

export const applicationPayload = z.object({
  appName: z.string(),
  description: nullableString,
  url: nullableString,
  color: nullableString,
  icon: nullableString,
  strategies: z.array(z.string()),
});

/** Instance settings Vexil records: maintenance mode and the frontend API's origins. */
export const settingPayload = z.union([
  z.object({ id: z.literal("maintenance.mode"), enabled: z.boolean() }),
  z.object({ id: z.literal("unleash.frontend"), frontendApiOrigins: z.array(z.string()) }),
]);

/** Change requests of one project environment (change-request-configuration-updated). */
export const changeRequestConfigPayload = z.object({
  changeRequestsEnabled: z.boolean(),
  requiredApprovals: z.number().nullable(),
});

/** What every change-request-* event carries. */
export const changeRequestPayload = z.object({ changeRequestId: z.number() });

/** A change request scheduled to apply at `scheduledDate`. */
export const scheduledChangeRequestPayload = changeRequestPayload.extend({ scheduledDate: z.string() });
/** Why a scheduled change request was suspended or could not be applied. */
export const changeRequestReasonPayload = changeRequestPayload.extend({ reason: z.string() });
/** A change taken out of a change request (change-discarded). */
export const discardedChangePayload = changeRequestPayload.extend({
  changeId: z.number(),
  action: z.string(),
});

/** A change proposed in a change request, with its payload as proposed (change-added, -edited). */
export const proposedChangePayload = changeRequestPayload.extend({
  changeId: z.number(),
  action: z.string(),
  payload: z.json(),
});

/** A strategy of a release milestone: a strategy's content, its values as the template gave them. */
const milestoneStrategyPayload = z.object({
  name: z.string(),
  title: nullableString,
  disabled: z.boolean(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  constraints: z.array(z.record(z.string(), z.unknown())),
  variants: z.array(z.record(z.string(), z.unknown())),
  segments: z.array(z.number()),
});

/** A release milestone: its strategies and when it moves on (null: by hand). */
export const milestonePayload = z.object({
  id: z.string(),
  name: z.string(),
  afterSeconds: z.number().nullable(),
  strategies: z.array(milestoneStrategyPayload),
});

/** A release template (release-plan-template-created, -updated, -archived, -deleted). */
export const releaseTemplatePayload = z.object({
  id: z.string(),
  name: z.string(),
  description: nullableString,
  milestones: z.array(milestonePayload),
});

/**
 * What a safeguard's reading is compared with: nothing, the time before the running milestone, or
 * the users who get the flag off over the same window.
 */
export const SAFEGUARD_BASELINES = ["none", "previousMilestone", "flagOff"] as const;

/** What a safeguard watches, and what it does when it trips. */
export const safeguardPayload = z.object({
  id: z.string(),
  metricName: z.string(),
  aggregationMode: z.enum(["count", "sum", "avg", "rps", "p50", "p95", "p99"]),
  labelSelectors: z.record(z.string(), z.array(z.string())),
  operator: z.enum([">", "<"]),
  threshold: z.number(),
  windowSeconds: z.number(),
  action: z.enum(["rollback", "disable"]),
  /**
   * `previousMilestone`: the threshold applies to the rise over the same window just before the
   * running milestone started; `flagOff`: to how far the users who get the flag (samples labelled
   * with it, not `disabled`) are above those who do not (`disabled`), over the same window (absent
   * in plans made before baselines existed: `none`).
   */
  baseline: z.enum(SAFEGUARD_BASELINES).optional(),
});

/** A release plan: a template applied to a flag in an environment (release-plan-added, -removed). */
export const releasePlanPayload = z.object({
  id: z.string(),
  templateId: z.string(),
  name: z.string(),
  milestones: z.array(milestonePayload),
  safeguards: z.array(safeguardPayload),
});

/** Why a milestone started (release-plan-milestone-started). */
export const MILESTONE_START_CAUSES = ["hand", "schedule", "rollback", "change-request"] as const;

/** A plan's milestone that started (release-plan-milestone-started). */
export const milestoneStartedPayload = z.object({
  planId: z.string(),
  milestoneId: z.string(),
  milestoneName: z.string(),
  /** Position of the milestone in the plan, from 0. */
  index: z.number(),
  /**
   * `hand`: a person started it; `schedule`: its predecessor's time was up; `rollback`: a
   * safeguard tripped; `change-request`: an approved change request (`startMilestone`) applied it.
   */
  cause: z.enum(MILESTONE_START_CAUSES),
  version: z.number(),
});

/** A plan paused or resumed (release-plan-progressions-paused, -resumed). */
export const planProgressPayload = z.object({
  planId: z.string(),
  version: z.number(),
  reason: nullableString.optional(),
});

/** A plan's safeguards (safeguard-changed). */
export const planSafeguardsPayload = z.object({ planId: z.string(), safeguards: z.array(safeguardPayload) });

/** A safeguard that tripped, with the numbers that tripped it (safeguard-triggered). */
export const safeguardTriggeredPayload = z.object({
  planId: z.string(),
  safeguard: safeguardPayload,
  /** The metric over the window, aggregated as the safeguard says (with a baseline: its rise). */
  value: z.number(),
  /**
   * With a baseline: the reading (`flagOff`: of the users who get the flag), and the baseline's
   * (`previousMilestone`: over the window before the milestone; `flagOff`: of those who do not).
   */
  current: z.number().nullable().optional(),
  baseline: z.number().nullable().optional(),
  from: z.string(),
  to: z.string(),
  /** The milestone that tripped, and the one now running (null: the flag was turned off). */
  trippedMilestoneId: nullableString,
  rolledBackToMilestoneId: nullableString,
  version: z.number(),
});

export type TagPayload = z.infer<typeof tagPayload>;
export type LinkPayload = z.infer<typeof linkPayload>;
export type FlagPayload = z.infer<typeof flagPayload>;
export type StrategyContentPayload = z.infer<typeof strategyContentPayload>;
export type StrategyPayload = z.infer<typeof strategyPayload>;
export type ProjectPayload = z.infer<typeof projectPayload>;
export type SegmentPayload = z.infer<typeof segmentPayload>;
export type EnvironmentPayload = z.infer<typeof environmentPayload>;
export type ContextFieldPayload = z.infer<typeof contextFieldPayload>;
export type TagTypePayload = z.infer<typeof tagTypePayload>;
export type FeatureTypePayload = z.infer<typeof featureTypePayload>;
export type StrategyDefinitionPayload = z.infer<typeof strategyDefinitionPayload>;
export type UserPayload = z.infer<typeof userPayload>;
export type RolePayload = z.infer<typeof rolePayload>;
export type ApiTokenPayload = z.infer<typeof apiTokenPayload>;
export type PersonalTokenPayload = z.infer<typeof personalTokenPayload>;
export type InvitePayload = z.infer<typeof invitePayload>;
export type AddonPayload = z.infer<typeof addonPayload>;
export type ApplicationPayload = z.infer<typeof applicationPayload>;
export type ChangeRequestConfigPayload = z.infer<typeof changeRequestConfigPayload>;
export type ChangeRequestPayload = z.infer<typeof changeRequestPayload>;
export type MilestonePayload = z.infer<typeof milestonePayload>;
export type ReleaseTemplatePayload = z.infer<typeof releaseTemplatePayload>;
export type SafeguardPayload = z.infer<typeof safeguardPayload>;
export type ReleasePlanPayload = z.infer<typeof releasePlanPayload>;
/** A JSON value, as a proposed change's payload. */
export type JsonPayload = z.infer<ReturnType<typeof z.json>>;
