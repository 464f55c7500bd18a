import { randomUUID } from "node:crypto";
import type { LinkPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { InvalidOperationError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { lockFeature } from "../feature-environments/feature-lock.read.ts";
import { type LinkInput, linkSchema } from "./feature.inputs.ts";

/** Most links one flag may have (Unleash's limit). */
export const MAX_LINKS_PER_FLAG = 10;

/**
 * The URL as stored: `https://` is assumed when no scheme is given (as Unleash does); only
 * http and https with a host are links; a bare `/` path is dropped. Throws Validation.
 */
export function normalizeLinkUrl(raw: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw invalidUrl(raw);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw invalidUrl(raw);
  const text = url.href;
  return url.pathname === "/" && !url.search && !url.hash && !raw.endsWith("/") ? text.slice(0, -1) : text;
}

function invalidUrl(raw: string) {
  return new ValidationError(`url: Invalid URL: ${raw}`, [{ path: "url", message: `Invalid URL: ${raw}` }]);
}

/** `{url, title}`: the `data`/`preData` of feature-link events (Unleash's). */
const linkRecord = (l: { url: string; title: string | null }): LinkPayload => ({
  url: l.url,
  title: l.title,
});

async function linkOf(w: Write, featureName: string, id: string) {
  const link = await w.tx.featureLink.findUnique({ where: { id } });
  if (!link || link.featureName !== featureName) {
    throw new NotFoundError(`Could not find link with id ${id} on flag "${featureName}"`);
  }
  return link;
}

/**
 * Adds a link to a flag of `project`. Records `feature-link-added` ({url, title}). Throws
 * NotFound (flag), Validation (URL), InvalidOperation (the flag has 10 links already).
 */
export async function addFeatureLink(w: Write, project: string, featureName: string, input: LinkInput) {
  const data = parseInput(linkSchema, input);
  await lockFeature(w.tx, project, featureName, true);
  const url = normalizeLinkUrl(data.url);
  if ((await w.tx.featureLink.count({ where: { featureName } })) >= MAX_LINKS_PER_FLAG) {
    throw new InvalidOperationError(`Too many links (${MAX_LINKS_PER_FLAG}) exist for this feature`);
  }
  const link = await w.tx.featureLink.create({
    data: { id: randomUUID(), featureName, url, title: data.title || null, createdAt: w.now },
  });
  await recordEvent(w, { type: "feature-link-added", project, featureName, data: linkRecord(link) });
  return link;
}

/**
 * Replaces a link's URL and title. Records `feature-link-updated` (data and preData {url,
 * title}; nothing when unchanged). Throws NotFound (flag, or a link not on that flag), Validation.
 */
export async function updateFeatureLink(
  w: Write,
  project: string,
  featureName: string,
  id: string,
  input: LinkInput,
) {
  const data = parseInput(linkSchema, input);
  await lockFeature(w.tx, project, featureName, true);
  const before = await linkOf(w, featureName, id);
  const url = normalizeLinkUrl(data.url);
  const link = await w.tx.featureLink.update({ where: { id }, data: { url, title: data.title || null } });
  await recordEvent(w, {
    type: "feature-link-updated",
    project,
    featureName,
    data: linkRecord(link),
    preData: linkRecord(before),
  });
  return link;
}

/** Deletes a link. Records `feature-link-removed` (preData {url, title}). Throws NotFound. */
export async function removeFeatureLink(w: Write, project: string, featureName: string, id: string) {
  await lockFeature(w.tx, project, featureName, true);
  const link = await linkOf(w, featureName, id);
  await w.tx.featureLink.delete({ where: { id } });
  await recordEvent(w, { type: "feature-link-removed", project, featureName, preData: linkRecord(link) });
  return link;
}
