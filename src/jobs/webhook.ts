import { lookup } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import Mustache from "mustache";
import type { StoredEvent } from "../events/types.ts";
import { addressBlocked, type OutboundPolicy, urlProblem } from "../modules/addons/outbound.logic.ts";

export type DeliveryState = "success" | "failed" | "successWithErrors";

/** What one attempt did, as logged in an integration event (spec 2.13, reference §8.5). */
export type DeliveryOutcome = {
  state: DeliveryState;
  stateDetails: string;
  details: { url: string; contentType: string; body: unknown };
  /** Worth another attempt later: network errors, timeouts, 408, 429 and 5xx. */
  retryable: boolean;
};

/** The event as integrations receive it: spec 2.10 plus the group fields. */
export function eventView(event: StoredEvent) {
  return {
    id: Number(event.id),
    type: event.type,
    createdBy: event.createdBy,
    createdAt: event.createdAt.toISOString(),
    createdByUserId: event.createdByUserId,
    data: event.data,
    preData: event.preData,
    tags: event.tags,
    featureName: event.featureName,
    project: event.project,
    environment: event.environment,
    label: event.label,
    summary: event.summary,
    groupType: event.groupType,
    groupId: event.groupId,
  };
}

/**
 * The request body: the event as JSON, or the Mustache `bodyTemplate` rendered with `event`,
 * `eventJson` (use `{{{eventJson}}}`) and `eventMarkdown` (the summary in the simple `*`
 * style, JSON-escaped when the template puts it inside a JSON string), as Unleash does.
 */
export function renderBody(
  template: string | undefined,
  event: StoredEvent,
): { text: string; logged: unknown } {
  const view = eventView(event);
  if (!template || template.length <= 1) return { text: JSON.stringify(view), logged: view };
  const markdown = (event.summary ?? "").replaceAll("**", "*");
  const inJsonString = template.includes('"{{eventMarkdown}}"') || template.includes('"{{{eventMarkdown}}}"');
  const text = Mustache.render(template, {
    event: view,
    eventJson: JSON.stringify(view),
    eventMarkdown: inJsonString ? JSON.stringify(markdown).slice(1, -1) : markdown,
  });
  return { text, logged: text };
}

/** One HTTP request an integration makes for an event. */
type IntegrationRequest = {
  url: string;
  contentType: string;
  headers: Record<string, string>;
  body: { text: string; logged: unknown };
};

type Parameters = Record<string, unknown>;

/** Where Slack's Web API is (its chat.postMessage); the tests point it at a local receiver. */
export type IntegrationEndpoints = { slackApiUrl: string };

/**
 * The requests each provider makes for an event (reference-behaviours §8.1), in the shapes the
 * receiving services document: the event as JSON (webhook, or its Mustache `bodyTemplate`), a
 * Microsoft Teams workflow message, a Datadog event, a New Relic custom event, and one Slack
 * chat.postMessage per channel.
 */
const REQUESTS: Record<
  string,
  (p: Parameters, event: StoredEvent, at: IntegrationEndpoints) => IntegrationRequest[]
> = {
  webhook: (p, event) => [
    {
      url: String(p.url ?? ""),
      contentType: stringParam(p.contentType) ?? "application/json",
      headers: stringParam(p.authorization)
        ? { Authorization: String(p.authorization) }
        : ({} as Record<string, string>),
      body: renderBody(stringParam(p.bodyTemplate), event),
    },
  ],
  teamsworkflow: (p, event) => [
    json(String(p.url ?? ""), {
      type: "message",
      attachments: [
        {
          contentType: "application/vnd.microsoft.card.adaptive",
          content: {
            type: "AdaptiveCard",
            version: "1.4",
            body: [{ type: "TextBlock", text: markdownOf(event), wrap: true }],
          },
        },
      ],
    }),
  ],
  datadog: (p, event) => {
    const url = stringParam(p.url) ?? "https://api.datadoghq.com/api/v1/events";
    const request = templateOr(url, p, event, {
      title: "Vexil notification update",
      text: `%%% \n${markdownOf(event)}\n %%%`,
      tags: [`type:${event.type}`, ...(event.project ? [`project:${event.project}`] : [])],
      ...(stringParam(p.sourceTypeName) ? { source_type_name: String(p.sourceTypeName) } : {}),
    });
    return [{ ...request, headers: { "DD-API-KEY": String(p.apiKey ?? "") } }];
  },
  "new-relic": (p, event) => {
    const request = templateOr(String(p.url ?? ""), p, event, [
      {
        eventType: "UnleashServiceEvent",
        unleashEventType: event.type,
        featureName: event.featureName,
        environment: event.environment,
        project: event.project,
        createdBy: event.createdBy,
        createdByUserId: event.createdByUserId,
        createdAt: event.createdAt.getTime(),
        summary: markdownOf(event),
      },
    ]);
    return [{ ...request, headers: { "Api-Key": String(p.licenseKey ?? "") } }];
  },
  "slack-app": (p, event, at) =>
    String(p.defaultChannels ?? "")
      .split(",")
      .map((channel) => channel.trim())
      .filter(Boolean)
      .map((channel) => ({
        ...json(`${at.slackApiUrl}/chat.postMessage`, { channel, text: markdownOf(event) }),
        headers: { Authorization: `Bearer ${String(p.accessToken ?? "")}` },
      })),
};

/** The addon's `bodyTemplate` rendered (as webhooks do), or else the service's own body as JSON. */
function templateOr(url: string, p: Parameters, event: StoredEvent, body: unknown): IntegrationRequest {
  const template = stringParam(p.bodyTemplate);
  if (!template) return json(url, body);
  return { url, contentType: "application/json", headers: {}, body: renderBody(template, event) };
}

function json(url: string, body: unknown): IntegrationRequest {
  return {
    url,
    contentType: "application/json",
    headers: {},
    body: { text: JSON.stringify(body), logged: body },
  };
}

/** The event's summary in the simple markdown style chat tools render. */
function markdownOf(event: StoredEvent): string {
  return (event.summary ?? event.type).replaceAll("**", "*");
}

/** The name a delivery log gives the provider's requests ("Webhook request failed …"). */
const REQUEST_LABELS: Record<string, string> = {
  webhook: "Webhook",
  teamsworkflow: "Microsoft Teams",
  datadog: "Datadog",
  "new-relic": "New Relic",
  "slack-app": "Slack",
};

/**
 * Sends one event through an addon of `provider`: its requests one after the other (extra
 * `customHeaders` on each); never throws (every failure is an outcome). A delivery succeeds
 * when every request does; it is worth retrying when a failed one is.
 */
export async function deliverEvent(
  provider: string,
  parameters: Parameters,
  event: StoredEvent,
  options: OutboundPolicy & { timeoutMs: number } & IntegrationEndpoints,
): Promise<DeliveryOutcome> {
  const build = REQUESTS[provider];
  const label = REQUEST_LABELS[provider] ?? provider;
  const requests = build ? build(parameters, event, options) : [];
  const first = requests[0];
  const details = first
    ? { url: first.url, contentType: first.contentType, body: first.body.logged }
    : { url: "", contentType: "application/json", body: null };
  if (requests.length === 0) {
    const why = build
      ? "it has nowhere to send the event (no channel)"
      : `the provider ${provider} is unknown`;
    return { state: "failed", stateDetails: `Nothing was sent: ${why}.`, details, retryable: false };
  }
  const warnings: string[] = [];
  const extra = customHeaders(stringParam(parameters.customHeaders), warnings);
  const outcomes: DeliveryOutcome[] = [];
  for (const request of requests) {
    const headers = { "Content-Type": request.contentType, ...request.headers, ...extra };
    outcomes.push(await send(label, request, headers, options));
  }
  const failed = outcomes.filter((o) => o.state === "failed");
  const stateDetails = [...outcomes.map((o) => o.stateDetails), ...warnings].join("\n");
  if (failed.length > 0)
    return { state: "failed", stateDetails, details, retryable: failed.some((o) => o.retryable) };
  return {
    state: warnings.length ? "successWithErrors" : "success",
    stateDetails,
    details,
    retryable: false,
  };
}

function customHeaders(custom: string | undefined, warnings: string[]): Record<string, string> {
  if (!custom) return {};
  try {
    const parsed = JSON.parse(custom) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
    return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
  } catch (error) {
    warnings.push(
      `Could not parse the customHeaders parameter as a JSON object (${(error as Error).message}); sent without them.`,
    );
    return {};
  }
}

async function send(
  label: string,
  request: IntegrationRequest,
  headers: Record<string, string>,
  options: OutboundPolicy & { timeoutMs: number },
): Promise<DeliveryOutcome> {
  const details = { url: request.url, contentType: request.contentType, body: request.body.logged };
  const problem = urlProblem(request.url, options);
  if (problem)
    return { state: "failed", stateDetails: `${label} URL ${problem}.`, details, retryable: false };
  try {
    const status = await post(request.url, headers, request.body.text, options);
    const ok = status >= 200 && status < 300;
    return {
      state: ok ? "success" : "failed",
      stateDetails: ok
        ? `${label} request was successful with status code: ${status}.`
        : `${label} request failed with status code: ${status}.`,
      details,
      retryable: !ok && (status >= 500 || status === 408 || status === 429),
    };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { state: "failed", stateDetails: `${label} request failed: ${reason}.`, details, retryable: true };
  }
}

function stringParam(value: unknown): string | undefined {
  return value === undefined || value === null || value === "" ? undefined : String(value);
}

/**
 * One POST with a deadline. Redirects are not followed, and the address DNS gives is checked
 * at connect time (a name that resolves to a metadata address is refused, rebinding included).
 */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: OutboundPolicy & { timeoutMs: number },
) {
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses as unknown as { address: string; family: number }[];
      const blocked = list.find((a) => addressBlocked(a.address, options));
      if (blocked) {
        const refusal = Object.assign(new Error(`address ${blocked.address} is blocked`), {
          code: "EBLOCKEDADDRESS",
        });
        return callback(refusal, "", 4);
      }
      if (lookupOptions.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      const first = list[0];
      return callback(null, first?.address ?? "", first?.family ?? 4);
    });
  };
  const client = url.startsWith("https:") ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup,
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
      options.timeoutMs,
    );
    request.on("close", () => clearTimeout(deadline));
    request.on("timeout", () =>
      request.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })),
    );
    request.on("error", reject);
    request.end(body);
  });
}
