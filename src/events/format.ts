import { EVENT_CATALOGUE, type EventType } from "./catalogue.ts";

/**
 * Human `label` and markdown `summary` of an event (spec 2.10), in the style of Unleash's
 * event formatter: a bold actor, a verb, the flag linked to its page, and where it happened.
 * The words of each type are its catalogue entry's.
 */

export type FormatInput = {
  type: EventType;
  createdBy: string;
  project: string | null;
  environment: string | null;
  featureName: string | null;
};

export function eventLabel(type: EventType): string {
  return EVENT_CATALOGUE[type].label ?? type;
}

export function eventSummary(event: FormatInput, baseUrl: string): string {
  const template = EVENT_CATALOGUE[event.type].summary;
  const actor = `**${event.createdBy}**`;
  if (template === null) return `${actor} triggered **${event.type}**`;
  const project = event.project ? `**[${event.project}](${baseUrl}/projects/${event.project})**` : "";
  const feature = event.featureName
    ? event.project
      ? `**[${event.featureName}](${baseUrl}/projects/${event.project}/features/${event.featureName})**`
      : `**${event.featureName}**`
    : "";
  const sentence = template
    .replaceAll("{{feature}}", feature)
    .replaceAll("{{project}}", project)
    .replaceAll("{{environment}}", event.environment ?? "")
    .replace(/ in project $/, "");
  return `${actor} ${sentence}`;
}
