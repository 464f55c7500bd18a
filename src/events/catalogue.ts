import type { z } from "zod";
import {
  type EventEntry,
  elsewhere,
  inEnvironment,
  inProject,
  UNRECORDED,
  untold,
} from "./catalogue-entry.ts";
import * as p from "./payloads.ts";

/**
 * The event catalogue: every event type of spec section 6, in its order, with how the audit log
 * names it (`label`), tells it (`summary`, format.ts) and what its `data` and `preData` hold.
 * `recordEvent` (record.ts) takes a payload of the type's schemas only, and readers of stored
 * events (REST's response schema, time travel) read them through the same schemas. Unleash's
 * types Vexil never records keep their place, without label or payload.
 */

const changeRequest = { data: p.changeRequestPayload };
const withReason = { data: p.changeRequestReasonPayload };
const setting = { data: p.settingPayload, preData: p.settingPayload.optional() };

export const EVENT_CATALOGUE = {
  "application-created": untold({ data: p.applicationPayload, preData: p.applicationPayload.optional() }),
  "feature-created": inProject("Flag created", "created {{feature}}", { data: p.flagPayload }),
  "feature-deleted": inProject("Flag deleted", "deleted {{feature}}", { preData: p.flagPayload }),
  "feature-updated": UNRECORDED,
  "feature-metadata-updated": inProject("Flag metadata updated", "updated {{feature}} metadata", {
    data: p.flagPayload,
    preData: p.flagPayload,
  }),
  "feature-variants-updated": inProject("Flag variants updated", "updated the variants of {{feature}}"),
  "feature-environment-variants-updated": inEnvironment(
    "Flag variants updated",
    "updated the variants of {{feature}}",
    { data: p.environmentVariantsPayload, preData: p.environmentVariantsPayload },
  ),
  "feature-project-change": elsewhere("Flag moved", "moved {{feature}} to project {{project}}"),
  "feature-archived": inProject("Flag archived", "archived {{feature}}"),
  "feature-revived": inProject("Flag revived", "revived {{feature}}"),
  "feature-import": UNRECORDED,
  "feature-tagged": inProject("Flag tagged", "tagged {{feature}}", { data: p.tagPayload }),
  "feature-tag-import": UNRECORDED,
  "feature-strategy-update": inEnvironment("Flag strategy updated", "updated a strategy of {{feature}}", {
    data: p.strategyPayload,
    preData: p.strategyPayload,
  }),
  "feature-strategy-add": inEnvironment("Flag strategy added", "added a strategy to {{feature}}", {
    data: p.strategyPayload,
  }),
  "feature-strategy-remove": inEnvironment("Flag strategy removed", "removed a strategy from {{feature}}", {
    preData: p.strategyPayload,
  }),
  "feature-type-updated": inProject("Flag type updated", "changed the type of {{feature}}", {
    data: p.featureTypePayload,
    preData: p.featureTypePayload,
  }),
  "feature-completed": inProject("Flag completed", "marked {{feature}} as completed", {
    data: p.completionPayload,
  }),
  "feature-uncompleted": inProject("Flag uncompleted", "marked {{feature}} as not completed"),
  "strategy-order-changed": inEnvironment(
    "Strategy order changed",
    "reordered the strategies of {{feature}}",
    {
      data: p.strategyOrderPayload,
      preData: p.strategyOrderPayload,
    },
  ),
  "drop-feature-tags": UNRECORDED,
  "feature-untagged": inProject("Flag untagged", "untagged {{feature}}", { preData: p.tagPayload }),
  "feature-stale-on": inProject("Flag marked stale", "marked {{feature}} as stale"),
  "feature-stale-off": inProject("Flag unmarked stale", "marked {{feature}} as not stale"),
  "drop-features": UNRECORDED,
  "feature-environment-enabled": inEnvironment("Flag enabled", "enabled {{feature}}"),
  "feature-environment-disabled": inEnvironment("Flag disabled", "disabled {{feature}}"),
  "strategy-created": untold({ data: p.strategyDefinitionPayload }),
  "strategy-deleted": untold({
    data: p.namePayload,
    preData: p.strategyDefinitionPayload,
  }),
  "strategy-deprecated": untold({ data: p.namePayload }),
  "strategy-reactivated": untold({ data: p.namePayload }),
  "strategy-updated": untold({ data: p.strategyDefinitionPayload, preData: p.strategyDefinitionPayload }),
  "strategy-import": UNRECORDED,
  "drop-strategies": UNRECORDED,
  "context-field-created": elsewhere("Context field created", "created a context field", {
    data: p.contextFieldPayload,
  }),
  "context-field-updated": elsewhere("Context field updated", "updated a context field", {
    data: p.contextFieldPayload,
    preData: p.contextFieldPayload,
  }),
  "context-field-deleted": elsewhere("Context field deleted", "deleted a context field", {
    preData: p.contextFieldPayload,
  }),
  "project-access-added": UNRECORDED,
  "project-access-user-roles-updated": UNRECORDED,
  "project-access-group-roles-updated": UNRECORDED,
  "project-access-user-roles-deleted": UNRECORDED,
  "project-access-group-roles-deleted": UNRECORDED,
  "project-access-updated": UNRECORDED,
  "project-created": elsewhere("Project created", "created project {{project}}", {
    data: p.createdProjectPayload,
  }),
  "project-updated": elsewhere("Project updated", "updated project {{project}}", {
    data: p.projectPayload,
    preData: p.projectPayload,
  }),
  "project-deleted": elsewhere("Project deleted", "deleted project {{project}}"),
  "project-archived": elsewhere("Project archived", "archived project {{project}}"),
  "project-revived": elsewhere("Project revived", "revived project {{project}}"),
  "project-import": UNRECORDED,
  "project-user-added": inProject("Project member added", "gave a user a role", {
    data: p.projectMemberPayload,
  }),
  "project-user-removed": inProject("Project member removed", "took a role from a user", {
    preData: p.projectMemberPayload,
  }),
  "project-user-role-changed": UNRECORDED,
  "project-group-role-changed": UNRECORDED,
  "project-group-added": UNRECORDED,
  "project-group-removed": UNRECORDED,
  "role-created": elsewhere("Role created", "created a role", { data: p.rolePayload }),
  "role-updated": elsewhere("Role updated", "updated a role", {
    data: p.rolePayload,
    preData: p.rolePayload,
  }),
  "role-deleted": elsewhere("Role deleted", "deleted a role", { preData: p.rolePayload }),
  "drop-projects": UNRECORDED,
  "tag-created": elsewhere("Tag created", "created a tag", { data: p.tagPayload }),
  "tag-deleted": elsewhere("Tag deleted", "deleted a tag", { preData: p.tagPayload }),
  "tag-import": UNRECORDED,
  "drop-tags": UNRECORDED,
  "tag-type-created": elsewhere("Tag type created", "created a tag type", { data: p.tagTypePayload }),
  "tag-type-deleted": elsewhere("Tag type deleted", "deleted a tag type", { preData: p.tagTypePayload }),
  "tag-type-updated": elsewhere("Tag type updated", "updated a tag type", {
    data: p.tagTypePayload,
    preData: p.tagTypePayload,
  }),
  "tag-type-import": UNRECORDED,
  "drop-tag-types": UNRECORDED,
  "addon-config-created": untold({ data: p.addonPayload }),
  "addon-config-updated": untold({ data: p.addonPayload, preData: p.addonPayload }),
  "addon-config-deleted": untold({ preData: p.addonPayload }),
  "db-pool-update": UNRECORDED,
  "user-created": elsewhere("User created", "created a user", { data: p.userPayload }),
  "user-updated": elsewhere("User updated", "updated a user", {
    data: p.userPayload,
    preData: p.userPayload,
  }),
  "user-deleted": elsewhere("User deleted", "deleted a user", { preData: p.userPayload }),
  "drop-environments": UNRECORDED,
  "environment-import": UNRECORDED,
  "environment-created": elsewhere("Environment created", "created the **{{environment}}** environment", {
    data: p.environmentPayload,
  }),
  "environment-updated": elsewhere("Environment updated", "updated the **{{environment}}** environment", {
    data: p.environmentPayload,
    preData: p.environmentPayload,
  }),
  "environment-deleted": elsewhere("Environment deleted", "deleted the **{{environment}}** environment", {
    preData: p.environmentPayload,
  }),
  "segment-created": inProject("Segment created", "created a segment", { data: p.segmentPayload }),
  "segment-updated": inProject("Segment updated", "updated a segment", {
    data: p.segmentPayload,
    preData: p.segmentPayload,
  }),
  "segment-deleted": inProject("Segment deleted", "deleted a segment", { preData: p.segmentPayload }),
  "group-created": UNRECORDED,
  "group-updated": UNRECORDED,
  "group-deleted": UNRECORDED,
  "group-user-added": UNRECORDED,
  "group-user-removed": UNRECORDED,
  "setting-created": untold(setting),
  "setting-updated": untold(setting),
  "setting-deleted": UNRECORDED,
  "client-metrics": UNRECORDED,
  "client-register": UNRECORDED,
  "pat-created": elsewhere("Personal access token created", "created a personal access token", {
    data: p.personalTokenPayload,
  }),
  "pat-deleted": elsewhere("Personal access token deleted", "deleted a personal access token", {
    preData: p.personalTokenPayload,
  }),
  "public-signup-token-created": elsewhere("Invite link created", "created an invite link", {
    data: p.invitePayload,
  }),
  "public-signup-token-user-added": elsewhere(
    "User signed up with an invite link",
    "added a user from an invite link",
    {
      data: p.signedUpPayload,
    },
  ),
  "public-signup-token-updated": elsewhere("Invite link updated", "updated an invite link", {
    data: p.invitePayload,
    preData: p.invitePayload,
  }),
  "change-request-created": inProject("Change request created", "created a change request", changeRequest),
  "change-request-discarded": inProject(
    "Change request discarded",
    "discarded a draft change request",
    changeRequest,
  ),
  "change-added": elsewhere(
    "Change added",
    "proposed a change in the **{{environment}}** environment of project {{project}}",
    { data: p.proposedChangePayload },
  ),
  "change-discarded": elsewhere(
    "Change discarded",
    "discarded a proposed change in the **{{environment}}** environment of project {{project}}",
    { data: p.discardedChangePayload },
  ),
  "change-edited": elsewhere(
    "Change edited",
    "edited a proposed change in the **{{environment}}** environment of project {{project}}",
    { data: p.proposedChangePayload },
  ),
  "change-request-rejected": inProject("Change request rejected", "rejected a change request", changeRequest),
  "change-request-approved": inProject(
    "Change request approved",
    "completed the approvals of a change request",
    changeRequest,
  ),
  "change-request-approval-added": inProject(
    "Change request approval added",
    "approved a change request",
    changeRequest,
  ),
  "change-request-cancelled": inProject(
    "Change request cancelled",
    "cancelled a change request",
    changeRequest,
  ),
  "change-request-sent-to-review": inProject(
    "Change request sent to review",
    "sent a change request to review",
    changeRequest,
  ),
  "change-request-schedule-suspended": inProject(
    "Change request schedule suspended",
    "suspended the schedule of a change request",
    withReason,
  ),
  "change-request-applied": inProject("Change request applied", "applied a change request", changeRequest),
  "change-request-scheduled": inProject("Change request scheduled", "scheduled a change request", {
    data: p.scheduledChangeRequestPayload,
  }),
  "change-request-scheduled-application-success": inProject(
    "Scheduled change request applied",
    "applied a scheduled change request",
    changeRequest,
  ),
  "change-request-scheduled-application-failure": inProject(
    "Scheduled change request failed",
    "could not apply a scheduled change request",
    withReason,
  ),
  "change-request-configuration-updated": inProject(
    "Change request configuration updated",
    "updated the change request configuration of the **{{environment}}** environment",
    { data: p.changeRequestConfigPayload, preData: p.changeRequestConfigPayload },
  ),
  "api-token-created": elsewhere("API token created", "created an API token", { data: p.apiTokenPayload }),
  "api-token-updated": untold({ data: p.apiTokenPayload, preData: p.apiTokenPayload }),
  "api-token-deleted": elsewhere("API token deleted", "deleted an API token", { preData: p.apiTokenPayload }),
  "feature-favorited": elsewhere("Flag favorited", "favorited {{feature}}", {
    data: p.featureRefPayload,
  }),
  "feature-unfavorited": elsewhere("Flag unfavorited", "unfavorited {{feature}}", {
    data: p.featureRefPayload,
  }),
  "project-favorited": elsewhere("Project favorited", "favorited project {{project}}", {
    data: p.projectRefPayload,
  }),
  "project-unfavorited": elsewhere("Project unfavorited", "unfavorited project {{project}}", {
    data: p.projectRefPayload,
  }),
  "features-exported": UNRECORDED,
  "features-imported": UNRECORDED,
  "service-account-created": UNRECORDED,
  "service-account-deleted": UNRECORDED,
  "service-account-updated": UNRECORDED,
  "feature-potentially-stale-on": inProject(
    "Flag potentially stale",
    "flagged {{feature}} as potentially stale",
  ),
  "feature-dependency-added": inProject("Dependency added", "added a dependency to {{feature}}", {
    data: p.dependencyPayload,
  }),
  "feature-dependency-removed": inProject("Dependency removed", "removed a dependency from {{feature}}", {
    data: p.featureRefPayload,
  }),
  "feature-dependencies-removed": inProject(
    "Dependencies removed",
    "removed all dependencies from {{feature}}",
  ),
  "feature-link-added": inProject("Flag link added", "added a link to {{feature}}", {
    data: p.linkPayload,
  }),
  "feature-link-updated": inProject("Flag link updated", "updated a link of {{feature}}", {
    data: p.linkPayload,
    preData: p.linkPayload,
  }),
  "feature-link-removed": inProject("Flag link removed", "removed a link from {{feature}}", {
    preData: p.linkPayload,
  }),
  "banner-created": UNRECORDED,
  "banner-updated": UNRECORDED,
  "banner-deleted": UNRECORDED,
  "project-environment-added": inProject(
    "Project environment added",
    "enabled the **{{environment}}** environment",
  ),
  "project-environment-removed": inProject(
    "Project environment removed",
    "disabled the **{{environment}}** environment",
  ),
  "default-strategy-updated": untold({
    data: p.strategyContentPayload,
    preData: p.strategyContentPayload.nullable(),
  }),
  "segment-import": UNRECORDED,
  "signal-endpoint-created": UNRECORDED,
  "signal-endpoint-updated": UNRECORDED,
  "signal-endpoint-deleted": UNRECORDED,
  "signal-endpoint-token-created": UNRECORDED,
  "signal-endpoint-token-updated": UNRECORDED,
  "signal-endpoint-token-deleted": UNRECORDED,
  "actions-created": UNRECORDED,
  "actions-updated": UNRECORDED,
  "actions-deleted": UNRECORDED,
  // Unleash's release plans and safeguards (Enterprise in Unleash 8.2; issue 41).
  "release-plan-template-created": elsewhere("Release template created", "created a release template", {
    data: p.releaseTemplatePayload,
  }),
  "release-plan-template-updated": elsewhere("Release template updated", "changed a release template", {
    data: p.releaseTemplatePayload,
    preData: p.releaseTemplatePayload,
  }),
  "release-plan-template-deleted": elsewhere("Release template deleted", "deleted a release template", {
    preData: p.releaseTemplatePayload,
  }),
  "release-plan-template-archived": elsewhere("Release template archived", "archived a release template", {
    preData: p.releaseTemplatePayload,
  }),
  "release-plan-added": inEnvironment("Release plan added", "added a release plan to {{feature}}", {
    data: p.releasePlanPayload,
  }),
  "release-plan-removed": inEnvironment("Release plan removed", "removed the release plan of {{feature}}", {
    preData: p.releasePlanPayload,
  }),
  "release-plan-milestone-started": inEnvironment(
    "Release milestone started",
    "started a release milestone of {{feature}}",
    { data: p.milestoneStartedPayload },
  ),
  "release-plan-progressions-paused": inEnvironment(
    "Release plan paused",
    "paused the release plan of {{feature}}",
    { data: p.planProgressPayload },
  ),
  "release-plan-progressions-resumed": inEnvironment(
    "Release plan resumed",
    "resumed the release plan of {{feature}}",
    { data: p.planProgressPayload },
  ),
  "milestone-progression-created": UNRECORDED,
  "milestone-progression-updated": UNRECORDED,
  "milestone-progression-deleted": UNRECORDED,
  "milestone-progression-changed": UNRECORDED,
  "safeguard-changed": inEnvironment("Safeguards changed", "changed the safeguards of {{feature}}", {
    data: p.planSafeguardsPayload,
    preData: p.planSafeguardsPayload,
  }),
  "safeguard-deleted": UNRECORDED,
  "safeguard-triggered": inEnvironment("Safeguard triggered", "saw a safeguard of {{feature}} trip", {
    data: p.safeguardTriggeredPayload,
  }),
} satisfies Record<string, EventEntry>;

type Catalogue = typeof EVENT_CATALOGUE;
export type EventType = keyof Catalogue;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, value);
}

/** What an event of type `T` holds in `data`; `undefined`: nothing (stored as null). */
export type EventData<T extends EventType> = z.infer<Catalogue[T]["data"]>;
/** What an event of type `T` holds in `preData`; `undefined`: nothing (stored as null). */
export type EventPreData<T extends EventType> = z.infer<Catalogue[T]["preData"]>;
