import { z } from "zod";

/** Most tokens one validate call may ask about (Edge asks about the few tokens it was given or just met). */
export const MAX_TOKENS = 100;
export const tokenStringList = z.looseObject({ tokens: z.array(z.string().max(1000)).max(MAX_TOKENS) });
