import { z } from "zod";

export const apiTokenInput = z
  .object({
    tokenName: z.string().trim().min(1).max(255),
    type: z
      .string()
      .transform((t) => t.toLowerCase())
      .pipe(z.enum(["client", "backend", "frontend", "admin"]))
      .transform((t) => (t === "backend" ? "client" : t)),
    environment: z.string().min(1).nullish(),
    projects: z.array(z.string().min(1)).min(1).nullish(),
    expiresAt: z.date().nullish(),
  })
  .transform((t) => ({
    ...t,
    environment: t.type === "admin" ? "*" : (t.environment ?? "development"),
    projects: t.type === "admin" ? ["*"] : (t.projects ?? ["*"]),
  }));

export const personalTokenInput = z.object({
  description: z.string().trim().min(1).max(255),
  expiresAt: z.date(),
});
