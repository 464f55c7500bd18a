import type { EventHooks } from "./events/hooks.ts";
import { queueAddonDeliveries } from "./modules/addons/addon-deliveries.write.ts";
import { flagTagsOfEvent } from "./modules/features/feature-tags.read.ts";
import { keepFlagHistory } from "./modules/time-travel/flag-history.write.ts";

/**
 * What the modules do in the transaction of every event (src/events/hooks.ts): the flag's tags
 * on the event (features), the webhook outbox (addons), the flag's history (time travel).
 * createApp puts them in every app's scope (AppBase.eventHooks), so every write records its
 * events with them; test/events/event-hooks.test.ts fails for an app whose events miss one.
 */
export const EVENT_HOOKS: EventHooks = {
  flagTags: flagTagsOfEvent,
  effects: [queueAddonDeliveries, keepFlagHistory],
};
