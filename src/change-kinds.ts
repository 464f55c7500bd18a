import { RELEASE_PLAN_CHANGE_KINDS } from "./modules/release-plans/release-plan-changes.write.ts";
import type { ChangeKinds } from "./shared/change-kinds.ts";

/**
 * The change kinds of modules above change-requests (src/shared/change-kinds.ts): a release
 * plan added, removed, or a milestone started through a change request (D-26). createApp puts
 * them in every app's scope (AppBase.changeKinds), so every write can propose and apply them.
 */
export const CHANGE_KINDS: ChangeKinds = { ...RELEASE_PLAN_CHANGE_KINDS };
