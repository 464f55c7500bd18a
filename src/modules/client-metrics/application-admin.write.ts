import type { ApplicationPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import type { Write } from "../../shared/write.ts";

export type ApplicationMetadata = {
  description?: string | null;
  url?: string | null;
  color?: string | null;
  icon?: string | null;
  strategies?: string[] | null;
};

const FIELDS = ["description", "url", "color", "icon", "strategies"] as const;

/**
 * Creates an application, or sets the metadata given (fields left out are kept), as Unleash's
 * `POST /api/admin/metrics/applications/:appName`; records `application-created` with the
 * application after (and before, when it existed); nothing when nothing changed.
 */
export async function saveApplication(
  w: Write,
  appName: string,
  input: ApplicationMetadata,
): Promise<boolean> {
  const before = await w.tx.clientApplication.findUnique({ where: { appName } });
  const changes = Object.fromEntries(
    FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f] ?? null]),
  );
  if (changes.strategies === null) changes.strategies = [];
  const after = await w.tx.clientApplication.upsert({
    where: { appName },
    create: { appName, lastSeenAt: w.now, ...changes },
    update: changes,
  });
  const view = (a: typeof after): ApplicationPayload => ({
    appName: a.appName,
    description: a.description,
    url: a.url,
    color: a.color,
    icon: a.icon,
    strategies: a.strategies,
  });
  await recordEvent(w, {
    type: "application-created",
    data: view(after),
    ...(before ? { preData: view(before) } : {}),
  });
  return true;
}

/**
 * Forgets an application: its metadata and instances (its kept metrics stay with the flags).
 * Unleash's event catalogue has no type for it, and SDK telemetry is not audited, so no event.
 * An unknown name is a no-op.
 */
export async function deleteApplication(w: Write, appName: string): Promise<boolean> {
  await w.tx.clientApplication.deleteMany({ where: { appName } });
  return true;
}
