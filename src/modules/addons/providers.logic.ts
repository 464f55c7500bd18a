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

const CUSTOM_HEADERS: ParameterDefinition = {
  name: "customHeaders",
  displayName: "Extra HTTP Headers",
  type: "textfield",
  description: "A JSON object of extra request headers.",
  placeholder: '{ "X-Team": "flags" }',
  required: false,
  sensitive: true,
};

const BODY_TEMPLATE: ParameterDefinition = {
  name: "bodyTemplate",
  displayName: "Body template",
  type: "textfield",
  description:
    "Mustache template of the request body instead of the default one (variables as for webhooks).",
  required: false,
  sensitive: false,
};

const SLACK_APP: ProviderDefinition = {
  name: "slack-app",
  displayName: "Slack App",
  description: "Posts a message about each matching event to Slack channels.",
  documentationUrl: "https://docs.getunleash.io/reference/integrations/slack-app",
  howTo: "Create a Slack app with the chat:write scope, install it, and give its bot token and the channels.",
  parameters: [
    {
      name: "accessToken",
      displayName: "Access token",
      type: "text",
      description: "The Slack app's bot token (xoxb-…).",
      required: true,
      sensitive: true,
    },
    {
      name: "defaultChannels",
      displayName: "Channels",
      type: "text",
      description: "Comma-separated channels the app posts to (it must be a member).",
      placeholder: "feature-flags, releases",
      required: true,
      sensitive: false,
    },
    CUSTOM_HEADERS,
  ],
  events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
};

const TEAMS_WORKFLOW: ProviderDefinition = {
  name: "teamsworkflow",
  displayName: "Microsoft Teams (workflow)",
  description: "Posts an adaptive card about each matching event to a Microsoft Teams workflow.",
  documentationUrl: "https://docs.getunleash.io/reference/integrations/teams",
  howTo: 'Create a Teams workflow "Post to a channel when a webhook request is received" and give its URL.',
  parameters: [
    {
      name: "url",
      displayName: "Workflow URL",
      type: "url",
      description: "The workflow's HTTP POST URL.",
      required: true,
      sensitive: true,
    },
    CUSTOM_HEADERS,
  ],
  events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
};

const DATADOG: ProviderDefinition = {
  name: "datadog",
  displayName: "Datadog",
  description: "Sends each matching event to Datadog's event stream.",
  documentationUrl: "https://docs.getunleash.io/reference/integrations/datadog",
  howTo:
    "Give a Datadog API key; the URL defaults to https://api.datadoghq.com/api/v1/events (another site: its own).",
  parameters: [
    {
      name: "url",
      displayName: "Datadog events URL",
      type: "url",
      description: "Default https://api.datadoghq.com/api/v1/events.",
      placeholder: "https://api.datadoghq.com/api/v1/events",
      required: false,
      sensitive: false,
    },
    {
      name: "apiKey",
      displayName: "API key",
      type: "text",
      description: "A Datadog API key (sent as DD-API-KEY).",
      required: true,
      sensitive: true,
    },
    {
      name: "sourceTypeName",
      displayName: "Source type",
      type: "text",
      description: "Datadog's source_type_name of the events.",
      required: false,
      sensitive: false,
    },
    CUSTOM_HEADERS,
    BODY_TEMPLATE,
  ],
  events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
};

const NEW_RELIC: ProviderDefinition = {
  name: "new-relic",
  displayName: "New Relic",
  description: "Sends each matching event to New Relic as a custom event (UnleashServiceEvent).",
  documentationUrl: "https://docs.getunleash.io/reference/integrations/new-relic",
  howTo: "Give your account's Event API URL and a license key.",
  parameters: [
    {
      name: "url",
      displayName: "Event API URL",
      type: "url",
      description:
        "https://insights-collector.newrelic.com/v1/accounts/<account id>/events (or your region's).",
      required: true,
      sensitive: false,
    },
    {
      name: "licenseKey",
      displayName: "License key",
      type: "text",
      description: "An ingest license key (sent as Api-Key).",
      required: true,
      sensitive: true,
    },
    CUSTOM_HEADERS,
    BODY_TEMPLATE,
  ],
  events: [...FLAG_EVENTS, ...CHANGE_REQUEST_EVENTS],
};

/** The providers addons can be created for. */
export const PROVIDERS: ProviderDefinition[] = [WEBHOOK, SLACK_APP, TEAMS_WORKFLOW, DATADOG, NEW_RELIC];

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
