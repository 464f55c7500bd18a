import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";

/** The GraphQL selection of an invite link in Unleash's publicSignupTokenSchema shape. */
export const INVITE_FIELDS =
  "secret url name enabled expiresAt createdAt createdBy role { id name type description } users { id: databaseId name email username imageUrl createdAt seenAt }";

const invitedUserSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  createdAt: z.string().datetime(),
  seenAt: z.string().datetime().nullable(),
});

export const inviteSchema = z.strictObject({
  secret: z.string(),
  url: z.string().url().nullable(),
  name: z.string(),
  enabled: z.boolean(),
  expiresAt: z.string().datetime(),
  createdAt: z.string().datetime(),
  createdBy: z.string().nullable(),
  users: z.array(invitedUserSchema).nullable(),
  role: z.object({
    id: z.number().int(),
    name: z.string(),
    type: z.string(),
    description: z.string().nullable(),
  }),
});

export const inviteRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/invite-link/tokens",
    tag: "Public signup tokens",
    summary: "List invite links (admins only)",
    document: `query Invites { publicSignupTokens { ${INVITE_FIELDS} } }`,
    respond: (data) => ({ tokens: data.publicSignupTokens }),
    schemas: { response: z.strictObject({ tokens: z.array(inviteSchema) }) },
    errors: [403],
  },
  {
    method: "POST",
    path: "/api/admin/invite-link/tokens",
    tag: "Public signup tokens",
    summary: "Create an invite link (admins only)",
    description:
      "Body `{name, expiresAt}`. Users who sign up with it get the Viewer root role. Records public-signup-token-created.",
    status: 201,
    document: `mutation CreateInvite($input: CreatePublicSignupTokenInput!) { createPublicSignupToken(input: $input) { ${INVITE_FIELDS} } }`,
    variables: (req) => ({ input: objectBody(req) }),
    schemas: {
      body: z.strictObject({ name: z.string(), expiresAt: z.string().datetime({ offset: true }) }),
      response: inviteSchema,
    },
    errors: [400, 403],
  },
  {
    method: "GET",
    path: "/api/admin/invite-link/tokens/:token",
    tag: "Public signup tokens",
    summary: "Get an invite link (admins only)",
    document: `query Invite($secret: String!) { publicSignupToken(secret: $secret) { ${INVITE_FIELDS} } }`,
    variables: (req) => ({ secret: req.params.token }),
    respond: (data, req) => {
      if (!data.publicSignupToken) throw new NotFoundError(`Could not find invite link ${req.params.token}`);
      return data.publicSignupToken;
    },
    schemas: { response: inviteSchema },
    errors: [403, 404],
  },
  {
    method: "PUT",
    path: "/api/admin/invite-link/tokens/:token",
    tag: "Public signup tokens",
    summary: "Change an invite link's expiry or enabled flag (admins only)",
    description:
      "Body `{expiresAt?, enabled?}`. Records public-signup-token-updated (nothing when unchanged).",
    document: `mutation UpdateInvite($secret: String!, $input: UpdatePublicSignupTokenInput!) { updatePublicSignupToken(secret: $secret, input: $input) { ${INVITE_FIELDS} } }`,
    variables: (req) => ({ secret: req.params.token, input: objectBody(req) }),
    schemas: {
      body: z.strictObject({
        expiresAt: z.string().datetime({ offset: true }).optional(),
        enabled: z.boolean().optional(),
      }),
      response: inviteSchema,
    },
  },
]);
