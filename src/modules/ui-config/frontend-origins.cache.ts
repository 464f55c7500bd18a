import type { AppDeps } from "../../context.ts";
import { type Remembered, rememberedUntilChanged } from "../../events/remembered.ts";
import { frontendApiOrigins } from "./frontend-settings.write.ts";

/**
 * `frontendApiOrigins` as this node last read it (one per app): read once, forgotten on every
 * notice of a `setting-*` event from any node (or a resync), so CORS costs no query per request.
 */
export function rememberFrontendOrigins(deps: Pick<AppDeps, "bus" | "db" | "config">): Remembered<string[]> {
  return rememberedUntilChanged(deps.bus, () =>
    frontendApiOrigins(deps.db, deps.config.auth.frontendApiOrigins),
  );
}
