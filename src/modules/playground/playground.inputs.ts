import { z } from "zod";

/** A context as the playground takes it (EvaluationContextInput). */
export const contextSchema = z.object({
  userId: z.string().nullish(),
  sessionId: z.string().nullish(),
  remoteAddress: z.string().nullish(),
  appName: z.string().nullish(),
  environment: z.string().nullish(),
  currentTime: z.date().nullish(),
  properties: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), {
      error: "properties must be an object of names to strings, numbers or booleans",
    })
    .nullish(),
});
