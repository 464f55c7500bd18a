/** Unknown flags are listed, and kept, for 24 hours after an SDK last reported them (as Unleash). */
export const UNKNOWN_FLAG_HOURS = 24;
