import type { EventType } from "../../events/catalogue.ts";

/** One parameter an addon of a provider takes (reference-behaviours §8.1). */
export type ParameterDefinition = {
  name: string;
  displayName: string;
  type: "url" | "text" | "textfield";
  description: string;
  placeholder?: string;
  required: boolean;
  /** Never returned after it is stored: shown as `*****`. */
  sensitive: boolean;
};

export type ProviderDefinition = {
  name: string;
  displayName: string;
  description: string;
  documentationUrl: string;
  howTo: string;
  parameters: ParameterDefinition[];
  /** Event types an addon of this provider can react to. */
  events: EventType[];
  deprecated?: string;
};

export const MASK = "*****";

const FLAG_EVENTS: EventType[] = [
  "feature-created",
  "feature-updated",
  "feature-archived",
  "feature-revived",
  "feature-stale-on",
  "feature-stale-off",
  "feature-completed",
  "feature-uncompleted",
  "feature-environment-enabled",
  "feature-environment-disabled",
  "feature-strategy-add",
  "feature-strategy-update",
  "feature-strategy-remove",
  "feature-metadata-updated",
  "feature-variants-updated",
  "feature-environment-variants-updated",
  "feature-project-change",
  "feature-tagged",
  "feature-untagged",
  "feature-potentially-stale-on",
];

const CHANGE_REQUEST_EVENTS: EventType[] = [
  "change-request-created",
  "change-added",
  "change-edited",
  "change-discarded",
  "change-request-discarded",
  "change-request-sent-to-review",
  "change-request-approval-added",
  "change-request-approved",
  "change-request-rejected",
  "change-request-cancelled",
  "change-request-applied",
  "change-request-scheduled",
  "change-request-scheduled-application-success",
  "change-request-scheduled-application-failure",
  "change-request-schedule-suspended",
];

const WEBHOOK: ProviderDefinition = {
  name: "webhook",
  displayName: "Webhook",
  description:
    "POSTs each matching event to an HTTP(S) endpoint, as JSON or through a Mustache body template.",
  documentationUrl: "https://docs.getunleash.io/reference/integrations/webhook",
  howTo:
    "Give the URL to call. Without a body template the event is sent as JSON; with one, the template is " +
    "rendered with {{event.*}}, {{{eventJson}}} and {{eventMarkdown}}.",
  parameters: [
    {
      name: "url",
      displayName: "Webhook URL",
      type: "url",
      description: "The http(s) URL every matching event is POSTed to.",
      placeholder: "https://server.com/webhook",
      required: true,
      sensitive: true,
    },
    {
      name: "contentType",
      displayName: "Content-Type",
      type: "text",
      description: "Content-Type header of the request (default application/json).",
      placeholder: "application/json",
      required: false,
      sensitive: false,
    },
    {
      name: "authorization",
      displayName: "Authorization",
      type: "text",
      description: "Authorization header of the request.",
      placeholder: "Bearer some-secret",
      required: false,
      sensitive: true,
    },
    {
      name: "customHeaders",
      displayName: "Extra HTTP Headers",
      type: "textfield",
      description: "A JSON object of extra request headers (they override the ones above).",
      placeholder: '{ "ISTIO_USER_KEY": "hunter2" }',
      required: false,
      sensitive: true,
    },
    {
      name: "bodyTemplate",
      displayName: "Body template",
      type: "textfield",
      description:
        "Mustache template of the request body; variables: event (the event's fields), eventJson (the whole " +
        "event as JSON, use {{{eventJson}}}) and eventMarkdown (its summary).",
      placeholder: '{ "event": "{{event.type}}", "createdBy": "{{event.createdBy}}" }',
      required: false,
      sensitive: false,
    },
  ],
  events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
};

/** The providers addons can be created for. */
export const PROVIDERS: ProviderDefinition[] = [WEBHOOK];

export function providerNamed(name: string): ProviderDefinition | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/** Parameters as shown to clients: sensitive values that are set come back as `*****`. */
export function maskParameters(provider: string, parameters: unknown): Record<string, unknown> {
  const values = (parameters ?? {}) as Record<string, unknown>;
  const definition = providerNamed(provider);
  const sensitive = new Set(definition?.parameters.filter((p) => p.sensitive).map((p) => p.name) ?? []);
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      // An unknown provider's parameters are all treated as secrets.
      (!definition || sensitive.has(name)) && value !== "" ? MASK : value,
    ]),
  );
}
