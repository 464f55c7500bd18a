import { z } from "zod";

/** Most tokens one validate call may ask about. */
export const MAX_TOKENS = 10_000;
export const tokenStringList = z.looseObject({ tokens: z.array(z.string().max(1000)).max(MAX_TOKENS) });
