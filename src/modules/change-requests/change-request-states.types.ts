export const OPEN_STATES = ["Draft", "In review", "Approved", "Scheduled"] as const;
export const CLOSED_STATES = ["Applied", "Cancelled", "Rejected"] as const;
export const ALL_STATES = [...OPEN_STATES, ...CLOSED_STATES] as const;
export type ChangeRequestState = (typeof ALL_STATES)[number];
