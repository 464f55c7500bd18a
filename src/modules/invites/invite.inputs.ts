import { z } from "zod";

const futureOrPast = z.coerce.date().refine((d) => !Number.isNaN(d.getTime()), "must be a date-time");

export const createInviteInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(255),
  expiresAt: futureOrPast,
});

/** A change names what changes: neither field is refused, as Unleash 8.2 does (400). */
export const updateInviteInput = z
  .object({
    expiresAt: futureOrPast.nullish(),
    enabled: z.boolean().nullish(),
  })
  .refine((input) => input.expiresAt != null || input.enabled != null, {
    message: "expiresAt or enabled is required",
    path: ["enabled"],
  });

export const signupInput = z.object({
  email: z.string().trim().min(1),
  name: z.string().trim().min(1).max(255),
  password: z.string().min(1),
  username: z.string().nullish(),
});
