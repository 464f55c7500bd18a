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

/** POSTs one event to a webhook addon; never throws (every failure is an outcome). */
export async function sendWebhook(
  parameters: Record<string, unknown>,
  event: StoredEvent,
  options: OutboundPolicy & { timeoutMs: number },
): Promise<DeliveryOutcome> {
  const url = String(parameters.url ?? "");
  const contentType = stringParam(parameters.contentType) ?? "application/json";
  const body = renderBody(stringParam(parameters.bodyTemplate), event);
  const details = { url, contentType, body: body.logged };
  const problem = urlProblem(url, options);
  if (problem) return { state: "failed", stateDetails: `Webhook URL ${problem}.`, details, retryable: false };

  const headers: Record<string, string> = { "Content-Type": contentType };
  const authorization = stringParam(parameters.authorization);
  if (authorization) headers.Authorization = authorization;
  const warnings: string[] = [];
  const custom = stringParam(parameters.customHeaders);
  if (custom) {
    try {
      const parsed = JSON.parse(custom) as unknown;
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
        throw new Error("not a JSON object");
      for (const [name, value] of Object.entries(parsed)) headers[name] = String(value);
    } catch (error) {
      warnings.push(
        `Could not parse the customHeaders parameter as a JSON object (${(error as Error).message}); sent without them.`,
      );
    }
  }

  try {
    const status = await post(url, headers, body.text, options);
    const ok = status >= 200 && status < 300;
    const stateDetails = ok
      ? `Webhook request was successful with status code: ${status}.`
      : `Webhook request failed with status code: ${status}.`;
    return {
      state: ok ? (warnings.length ? "successWithErrors" : "success") : "failed",
      stateDetails: [stateDetails, ...warnings].join("\n"),
      details,
      retryable: !ok && (status >= 500 || status === 408 || status === 429),
    };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      state: "failed",
      stateDetails: [`Webhook request failed: ${reason}.`, ...warnings].join("\n"),
      details,
      retryable: true,
    };
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
