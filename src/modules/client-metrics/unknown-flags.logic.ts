/** Unknown flags are listed for 7 days after an SDK last reported them. */
export const UNKNOWN_FLAG_DAYS = 7;
