import type { EventType } from "./catalogue.ts";

/**
 * Human `label` and markdown `summary` of an event (spec 2.10), in the style of Unleash's
 * event formatter: a bold actor, a verb, the flag linked to its page, and where it happened.
 */
type Template = { label: string; action: string };
type Templates = Partial<Record<EventType, readonly [label: string, action: string]>>;

function withPlace(templates: Templates, place: string): Partial<Record<EventType, Template>> {
  return Object.fromEntries(
    Object.entries(templates).map(([type, [label, action]]) => [type, { label, action: action + place }]),
  );
}

/** Label and verb phrase of events about a flag in one environment of a project. */
const IN_ENVIRONMENT: Templates = {
  "feature-environment-enabled": ["Flag enabled", "enabled {{feature}}"],
  "feature-environment-disabled": ["Flag disabled", "disabled {{feature}}"],
  "feature-strategy-add": ["Flag strategy added", "added a strategy to {{feature}}"],
  "feature-strategy-update": ["Flag strategy updated", "updated a strategy of {{feature}}"],
  "feature-strategy-remove": ["Flag strategy removed", "removed a strategy from {{feature}}"],
  "strategy-order-changed": ["Strategy order changed", "reordered the strategies of {{feature}}"],
  "feature-environment-variants-updated": ["Flag variants updated", "updated the variants of {{feature}}"],
};

/** Label and verb phrase of events that happen in a project. */
const IN_PROJECT: Templates = {
  "feature-created": ["Flag created", "created {{feature}}"],
  "feature-deleted": ["Flag deleted", "deleted {{feature}}"],
  "feature-metadata-updated": ["Flag metadata updated", "updated {{feature}} metadata"],
  "feature-archived": ["Flag archived", "archived {{feature}}"],
  "feature-revived": ["Flag revived", "revived {{feature}}"],
  "feature-stale-on": ["Flag marked stale", "marked {{feature}} as stale"],
  "feature-stale-off": ["Flag unmarked stale", "marked {{feature}} as not stale"],
  "feature-potentially-stale-on": ["Flag potentially stale", "flagged {{feature}} as potentially stale"],
  "feature-variants-updated": ["Flag variants updated", "updated the variants of {{feature}}"],
  "feature-tagged": ["Flag tagged", "tagged {{feature}}"],
  "feature-untagged": ["Flag untagged", "untagged {{feature}}"],
  "feature-type-updated": ["Flag type updated", "changed the type of {{feature}}"],
  "feature-completed": ["Flag completed", "marked {{feature}} as completed"],
  "feature-uncompleted": ["Flag uncompleted", "marked {{feature}} as not completed"],
  "feature-dependency-added": ["Dependency added", "added a dependency to {{feature}}"],
  "feature-dependency-removed": ["Dependency removed", "removed a dependency from {{feature}}"],
  "feature-dependencies-removed": ["Dependencies removed", "removed all dependencies from {{feature}}"],
  "feature-link-added": ["Flag link added", "added a link to {{feature}}"],
  "feature-link-updated": ["Flag link updated", "updated a link of {{feature}}"],
  "feature-link-removed": ["Flag link removed", "removed a link from {{feature}}"],
  "project-environment-added": ["Project environment added", "enabled the **{{environment}}** environment"],
  "project-environment-removed": [
    "Project environment removed",
    "disabled the **{{environment}}** environment",
  ],
  "project-user-added": ["Project member added", "gave a user a role"],
  "project-user-removed": ["Project member removed", "took a role from a user"],
  "change-request-created": ["Change request created", "created a change request"],
  "change-request-applied": ["Change request applied", "applied a change request"],
  "segment-created": ["Segment created", "created a segment"],
  "segment-updated": ["Segment updated", "updated a segment"],
  "segment-deleted": ["Segment deleted", "deleted a segment"],
  "change-request-discarded": ["Change request discarded", "discarded a draft change request"],
  "change-request-sent-to-review": ["Change request sent to review", "sent a change request to review"],
  "change-request-approval-added": ["Change request approval added", "approved a change request"],
  "change-request-approved": ["Change request approved", "completed the approvals of a change request"],
  "change-request-rejected": ["Change request rejected", "rejected a change request"],
  "change-request-cancelled": ["Change request cancelled", "cancelled a change request"],
  "change-request-scheduled": ["Change request scheduled", "scheduled a change request"],
  "change-request-scheduled-application-success": [
    "Scheduled change request applied",
    "applied a scheduled change request",
  ],
  "change-request-scheduled-application-failure": [
    "Scheduled change request failed",
    "could not apply a scheduled change request",
  ],
  "change-request-schedule-suspended": [
    "Change request schedule suspended",
    "suspended the schedule of a change request",
  ],
  "change-request-configuration-updated": [
    "Change request configuration updated",
    "updated the change request configuration of the **{{environment}}** environment",
  ],
};

/** Label and whole verb phrase of the other events. */
const ELSEWHERE: Templates = {
  "feature-project-change": ["Flag moved", "moved {{feature}} to project {{project}}"],
  "feature-favorited": ["Flag favorited", "favorited {{feature}}"],
  "feature-unfavorited": ["Flag unfavorited", "unfavorited {{feature}}"],
  "project-favorited": ["Project favorited", "favorited project {{project}}"],
  "project-unfavorited": ["Project unfavorited", "unfavorited project {{project}}"],
  "tag-created": ["Tag created", "created a tag"],
  "project-created": ["Project created", "created project {{project}}"],
  "project-updated": ["Project updated", "updated project {{project}}"],
  "project-archived": ["Project archived", "archived project {{project}}"],
  "project-revived": ["Project revived", "revived project {{project}}"],
  "project-deleted": ["Project deleted", "deleted project {{project}}"],
  "environment-created": ["Environment created", "created the **{{environment}}** environment"],
  "environment-updated": ["Environment updated", "updated the **{{environment}}** environment"],
  "context-field-created": ["Context field created", "created a context field"],
  "context-field-updated": ["Context field updated", "updated a context field"],
  "context-field-deleted": ["Context field deleted", "deleted a context field"],
  "tag-type-created": ["Tag type created", "created a tag type"],
  "tag-type-updated": ["Tag type updated", "updated a tag type"],
  "tag-type-deleted": ["Tag type deleted", "deleted a tag type"],
  "tag-deleted": ["Tag deleted", "deleted a tag"],
  "user-created": ["User created", "created a user"],
  "public-signup-token-created": ["Invite link created", "created an invite link"],
  "public-signup-token-updated": ["Invite link updated", "updated an invite link"],
  "public-signup-token-user-added": [
    "User signed up with an invite link",
    "added a user from an invite link",
  ],
  "user-updated": ["User updated", "updated a user"],
  "user-deleted": ["User deleted", "deleted a user"],
  "role-created": ["Role created", "created a role"],
  "role-updated": ["Role updated", "updated a role"],
  "role-deleted": ["Role deleted", "deleted a role"],
  "api-token-created": ["API token created", "created an API token"],
  "api-token-deleted": ["API token deleted", "deleted an API token"],
  "pat-created": ["Personal access token created", "created a personal access token"],
  "pat-deleted": ["Personal access token deleted", "deleted a personal access token"],
  "change-added": [
    "Change added",
    "proposed a change in the **{{environment}}** environment of project {{project}}",
  ],
  "change-edited": [
    "Change edited",
    "edited a proposed change in the **{{environment}}** environment of project {{project}}",
  ],
  "change-discarded": [
    "Change discarded",
    "discarded a proposed change in the **{{environment}}** environment of project {{project}}",
  ],
};

/** Where the summary of each group says the event happened, after its verb phrase. */
const T: Partial<Record<EventType, Template>> = {
  ...withPlace(IN_ENVIRONMENT, " for the **{{environment}}** environment in project {{project}}"),
  ...withPlace(IN_PROJECT, " in project {{project}}"),
  ...withPlace(ELSEWHERE, ""),
};

export type FormatInput = {
  type: string;
  createdBy: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
};

export function eventLabel(type: string): string {
  return T[type as EventType]?.label ?? type;
}

export function eventSummary(event: FormatInput, baseUrl: string): string {
  const template = T[event.type as EventType];
  const actor = `**${event.createdBy}**`;
  if (!template) return `${actor} triggered **${event.type}**`;
  const project = event.project ? `**[${event.project}](${baseUrl}/projects/${event.project})**` : "";
  const feature = event.featureName
    ? event.project
      ? `**[${event.featureName}](${baseUrl}/projects/${event.project}/features/${event.featureName})**`
      : `**${event.featureName}**`
    : "";
  const sentence = template.action
    .replaceAll("{{feature}}", feature)
    .replaceAll("{{project}}", project)
    .replaceAll("{{environment}}", event.environment ?? "")
    .replace(/ in project $/, "");
  return `${actor} ${sentence}`;
}
