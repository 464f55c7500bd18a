/** Hour buckets and counter bounds shared by the flag counters and the client-metrics ingestion. */

const HOUR_MS = 60 * 60 * 1000;
/** Counters are INTEGER columns: sums saturate instead of failing the whole batch. */
export const MAX_COUNT = 2_147_483_647;

export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
export const saturated = (n: number) => Math.min(n, MAX_COUNT);
