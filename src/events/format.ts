import type { EventType } from "./catalogue.ts";

/**
 * Human `label` and markdown `summary` of an event (spec 2.10), in the style of Unleash's
 * event formatter: a bold actor, a verb, the flag linked to its page, and where it happened.
 */
type Template = { label: string; action: string };

const T: Partial<Record<EventType, Template>> = {
  "feature-created": { label: "Flag created", action: "created {{feature}} in project {{project}}" },
  "feature-deleted": { label: "Flag deleted", action: "deleted {{feature}} in project {{project}}" },
  "feature-metadata-updated": {
    label: "Flag metadata updated",
    action: "updated {{feature}} metadata in project {{project}}",
  },
  "feature-archived": { label: "Flag archived", action: "archived {{feature}} in project {{project}}" },
  "feature-revived": { label: "Flag revived", action: "revived {{feature}} in project {{project}}" },
  "feature-stale-on": {
    label: "Flag marked stale",
    action: "marked {{feature}} as stale in project {{project}}",
  },
  "feature-stale-off": {
    label: "Flag unmarked stale",
    action: "marked {{feature}} as not stale in project {{project}}",
  },
  "feature-potentially-stale-on": {
    label: "Flag potentially stale",
    action: "flagged {{feature}} as potentially stale in project {{project}}",
  },
  "feature-environment-enabled": {
    label: "Flag enabled",
    action: "enabled {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-environment-disabled": {
    label: "Flag disabled",
    action: "disabled {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-strategy-add": {
    label: "Flag strategy added",
    action: "added a strategy to {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-strategy-update": {
    label: "Flag strategy updated",
    action:
      "updated a strategy of {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-strategy-remove": {
    label: "Flag strategy removed",
    action:
      "removed a strategy from {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "strategy-order-changed": {
    label: "Strategy order changed",
    action:
      "reordered the strategies of {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-variants-updated": {
    label: "Flag variants updated",
    action: "updated the variants of {{feature}} in project {{project}}",
  },
  "feature-environment-variants-updated": {
    label: "Flag variants updated",
    action:
      "updated the variants of {{feature}} for the **{{environment}}** environment in project {{project}}",
  },
  "feature-tagged": { label: "Flag tagged", action: "tagged {{feature}} in project {{project}}" },
  "feature-untagged": { label: "Flag untagged", action: "untagged {{feature}} in project {{project}}" },
  "feature-project-change": { label: "Flag moved", action: "moved {{feature}} to project {{project}}" },
  "feature-type-updated": {
    label: "Flag type updated",
    action: "changed the type of {{feature}} in project {{project}}",
  },
  "feature-completed": {
    label: "Flag completed",
    action: "marked {{feature}} as completed in project {{project}}",
  },
  "feature-uncompleted": {
    label: "Flag uncompleted",
    action: "marked {{feature}} as not completed in project {{project}}",
  },
  "feature-dependency-added": {
    label: "Dependency added",
    action: "added a dependency to {{feature}} in project {{project}}",
  },
  "feature-dependency-removed": {
    label: "Dependency removed",
    action: "removed a dependency from {{feature}} in project {{project}}",
  },
  "feature-dependencies-removed": {
    label: "Dependencies removed",
    action: "removed all dependencies from {{feature}} in project {{project}}",
  },
  "feature-link-added": {
    label: "Flag link added",
    action: "added a link to {{feature}} in project {{project}}",
  },
  "feature-link-updated": {
    label: "Flag link updated",
    action: "updated a link of {{feature}} in project {{project}}",
  },
  "feature-link-removed": {
    label: "Flag link removed",
    action: "removed a link from {{feature}} in project {{project}}",
  },
  "feature-favorited": { label: "Flag favorited", action: "favorited {{feature}}" },
  "feature-unfavorited": { label: "Flag unfavorited", action: "unfavorited {{feature}}" },
  "project-favorited": { label: "Project favorited", action: "favorited project {{project}}" },
  "project-unfavorited": { label: "Project unfavorited", action: "unfavorited project {{project}}" },
  "tag-created": { label: "Tag created", action: "created a tag" },
  "project-created": { label: "Project created", action: "created project {{project}}" },
  "project-updated": { label: "Project updated", action: "updated project {{project}}" },
  "project-archived": { label: "Project archived", action: "archived project {{project}}" },
  "project-revived": { label: "Project revived", action: "revived project {{project}}" },
  "project-deleted": { label: "Project deleted", action: "deleted project {{project}}" },
  "project-environment-added": {
    label: "Project environment added",
    action: "enabled the **{{environment}}** environment in project {{project}}",
  },
  "project-environment-removed": {
    label: "Project environment removed",
    action: "disabled the **{{environment}}** environment in project {{project}}",
  },
  "environment-created": {
    label: "Environment created",
    action: "created the **{{environment}}** environment",
  },
  "environment-updated": {
    label: "Environment updated",
    action: "updated the **{{environment}}** environment",
  },
  "context-field-created": { label: "Context field created", action: "created a context field" },
  "context-field-updated": { label: "Context field updated", action: "updated a context field" },
  "context-field-deleted": { label: "Context field deleted", action: "deleted a context field" },
  "tag-type-created": { label: "Tag type created", action: "created a tag type" },
  "tag-type-updated": { label: "Tag type updated", action: "updated a tag type" },
  "tag-type-deleted": { label: "Tag type deleted", action: "deleted a tag type" },
  "tag-deleted": { label: "Tag deleted", action: "deleted a tag" },
  "user-created": { label: "User created", action: "created a user" },
  "public-signup-token-created": { label: "Invite link created", action: "created an invite link" },
  "public-signup-token-updated": { label: "Invite link updated", action: "updated an invite link" },
  "public-signup-token-user-added": {
    label: "User signed up with an invite link",
    action: "added a user from an invite link",
  },
  "user-updated": { label: "User updated", action: "updated a user" },
  "user-deleted": { label: "User deleted", action: "deleted a user" },
  "role-created": { label: "Role created", action: "created a role" },
  "role-updated": { label: "Role updated", action: "updated a role" },
  "role-deleted": { label: "Role deleted", action: "deleted a role" },
  "api-token-created": { label: "API token created", action: "created an API token" },
  "api-token-deleted": { label: "API token deleted", action: "deleted an API token" },
  "pat-created": { label: "Personal access token created", action: "created a personal access token" },
  "pat-deleted": { label: "Personal access token deleted", action: "deleted a personal access token" },
  "project-user-added": {
    label: "Project member added",
    action: "gave a user a role in project {{project}}",
  },
  "project-user-removed": {
    label: "Project member removed",
    action: "took a role from a user in project {{project}}",
  },
  "change-request-created": {
    label: "Change request created",
    action: "created a change request in project {{project}}",
  },
  "change-request-applied": {
    label: "Change request applied",
    action: "applied a change request in project {{project}}",
  },
  "segment-created": { label: "Segment created", action: "created a segment in project {{project}}" },
  "segment-updated": { label: "Segment updated", action: "updated a segment in project {{project}}" },
  "segment-deleted": { label: "Segment deleted", action: "deleted a segment in project {{project}}" },
  "change-request-discarded": {
    label: "Change request discarded",
    action: "discarded a draft change request in project {{project}}",
  },
  "change-added": {
    label: "Change added",
    action: "proposed a change in the **{{environment}}** environment of project {{project}}",
  },
  "change-edited": {
    label: "Change edited",
    action: "edited a proposed change in the **{{environment}}** environment of project {{project}}",
  },
  "change-discarded": {
    label: "Change discarded",
    action: "discarded a proposed change in the **{{environment}}** environment of project {{project}}",
  },
  "change-request-sent-to-review": {
    label: "Change request sent to review",
    action: "sent a change request to review in project {{project}}",
  },
  "change-request-approval-added": {
    label: "Change request approval added",
    action: "approved a change request in project {{project}}",
  },
  "change-request-approved": {
    label: "Change request approved",
    action: "completed the approvals of a change request in project {{project}}",
  },
  "change-request-rejected": {
    label: "Change request rejected",
    action: "rejected a change request in project {{project}}",
  },
  "change-request-cancelled": {
    label: "Change request cancelled",
    action: "cancelled a change request in project {{project}}",
  },
  "change-request-scheduled": {
    label: "Change request scheduled",
    action: "scheduled a change request in project {{project}}",
  },
  "change-request-scheduled-application-success": {
    label: "Scheduled change request applied",
    action: "applied a scheduled change request in project {{project}}",
  },
  "change-request-scheduled-application-failure": {
    label: "Scheduled change request failed",
    action: "could not apply a scheduled change request in project {{project}}",
  },
  "change-request-schedule-suspended": {
    label: "Change request schedule suspended",
    action: "suspended the schedule of a change request in project {{project}}",
  },
  "change-request-configuration-updated": {
    label: "Change request configuration updated",
    action:
      "updated the change request configuration of the **{{environment}}** environment in project {{project}}",
  },
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
