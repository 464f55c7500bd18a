import type { Db } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { ValidationError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { settingContent } from "../settings/setting.read.ts";
import { createOrLockSetting, updateSetting } from "../settings/setting.write.ts";

/** The setting that holds the frontend API's CORS origins (Unleash's `unleash.frontend`). */
export const FRONTEND_SETTING = "unleash.frontend";
const MAX_ORIGINS = 1000;

type FrontendSettings = { frontendApiOrigins: string[] };

/**
 * The origins browsers may call the frontend API and OFREP from (CORS, never with cookies): the
 * stored setting once an admin set it, else FRONTEND_API_ORIGINS.
 */
export async function frontendApiOrigins(
  db: Pick<Db, "setting">,
  defaults: readonly string[],
): Promise<string[]> {
  return storedOrigins(await settingContent(db, FRONTEND_SETTING), defaults);
}

function storedOrigins(content: unknown, defaults: readonly string[]): string[] {
  const stored = (content as Partial<FrontendSettings> | undefined)?.frontendApiOrigins;
  return Array.isArray(stored) ? stored : [...defaults];
}

/** `*`, or an origin as browsers send it: http(s)://host[:port], nothing after. */
function checkOrigin(origin: string, index: number): string {
  if (origin === "*") return origin;
  let url: URL | null = null;
  try {
    url = new URL(origin);
  } catch {}
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
    const message = `"${origin}" is not an origin (scheme://host[:port]) or *`;
    throw new ValidationError(`frontendApiOrigins.${index}: ${message}`, [
      { path: `frontendApiOrigins.${index}`, message },
    ]);
  }
  return origin;
}

/**
 * Stores the frontend API's CORS origins (replacing FRONTEND_API_ORIGINS from then on).
 * Records `setting-created` or `setting-updated` (`{id, frontendApiOrigins}` as data and
 * preData; nothing when unchanged). Throws Validation for anything but `*` or an origin.
 */
export async function setFrontendApiOrigins(w: Write, origins: string[], defaults: readonly string[]) {
  if (origins.length > MAX_ORIGINS) throw new ValidationError(`frontendApiOrigins: at most ${MAX_ORIGINS}`);
  const next = [...new Set(origins.map((o, i) => checkOrigin(o.trim(), i)))];
  const content = { frontendApiOrigins: next };
  const before = await createOrLockSetting(w.tx, FRONTEND_SETTING, content);
  const previous = storedOrigins(before?.content, defaults);
  if (before) await updateSetting(w.tx, FRONTEND_SETTING, content);
  await recordEvent(w, {
    type: before ? "setting-updated" : "setting-created",
    data: { id: FRONTEND_SETTING, frontendApiOrigins: next },
    preData: { id: FRONTEND_SETTING, frontendApiOrigins: previous },
  });
  return next;
}
