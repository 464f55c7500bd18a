import { z } from "zod";

const email = z.string().trim().toLowerCase().email("must be an email address").max(255);
const username = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\s@]+$/, "must not contain spaces or @");

export const createUserInput = z
  .object({
    email: email.nullish(),
    username: username.nullish(),
    name: z.string().trim().max(255).nullish(),
    imageUrl: z.string().url().max(2000).nullish(),
    rootRole: z
      .string()
      .min(1)
      .nullish()
      .transform((r) => r ?? "Viewer"),
    password: z.string().nullish(),
  })
  .refine((u) => u.email || u.username, { message: "a user needs an email or a username", path: ["email"] });

export const updateUserInput = z.object({
  email: email.nullish(),
  name: z.string().trim().max(255).nullish(),
  imageUrl: z.string().url().max(2000).nullish(),
  rootRole: z.string().min(1).nullish(),
});

/** The user asking for a reset link: their email, or (as Unleash accepts) their username. */
export const resetLinkInput = z.object({
  id: z.string().trim().min(1).max(255),
});

export const roleInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).nullish(),
  type: z
    .enum(["custom", "root-custom"])
    .nullish()
    .transform((t) => t ?? "custom"),
  permissions: z
    .array(z.object({ name: z.string().min(1), environment: z.string().min(1).nullish() }))
    .nullish()
    .transform((p) => p ?? []),
});

export type CreateUserInput = z.input<typeof createUserInput>;
export type UpdateUserInput = z.input<typeof updateUserInput>;
export type RoleInput = z.input<typeof roleInput>;
