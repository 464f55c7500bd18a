import { z } from "zod";

const futureOrPast = z.coerce.date().refine((d) => !Number.isNaN(d.getTime()), "must be a date-time");

export const createInviteInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(255),
  expiresAt: futureOrPast,
});

export const updateInviteInput = z.object({
  expiresAt: futureOrPast.nullish(),
  enabled: z.boolean().nullish(),
});

export const signupInput = z.object({
  email: z.string().trim().min(1),
  name: z.string().trim().min(1).max(255),
  password: z.string().min(1),
  username: z.string().nullish(),
});
