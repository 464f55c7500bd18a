import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

/** An invite link in Unleash's publicSignupTokenSchema shape. */
const InviteFields = graphql(`
  fragment InviteFields on PublicSignupToken {
    id: databaseId name enabled expiresAt createdAt createdBy role { id name type description }
    users { id: databaseId name email username imageUrl createdAt seenAt }
  }
`);

const invitedUserSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  createdAt: z.string().datetime(),
  seenAt: z.string().datetime().nullable(),
});

/**
 * An invite link as answered after its creation: Vexil keeps only its secret's hash, so the
 * secret is not there and `url` (nullable in Unleash's schema) is null; `id` names the link.
 */
const inviteSchema = z.strictObject({
  id: z.number().int(),
  url: z.null(),
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

/** The creation's answer: the one time the secret and the URL carrying it are known. */
const createdInviteSchema = inviteSchema.extend({ secret: z.string(), url: z.string().url() });

const withoutUrl = <T>(token: T) => ({ ...token, url: null });

/**
 * The GraphQL arguments naming the link of a `:token` path parameter: Unleash's paths carry the
 * secret; since lists cannot show it, a link's `id` (a positive integer, never 32 hex digits)
 * names it too.
 */
function inviteKeyOf(param: string | undefined): { databaseId: number } | { secret: string } {
  return /^[1-9][0-9]{0,8}$/.test(param ?? "") ? { databaseId: Number(param) } : { secret: param ?? "" };
}

export const inviteRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/invite-link/tokens",
    tag: "Public signup tokens",
    summary: "List invite links (admins only), without their secrets",
    document: graphql(`query Invites { publicSignupTokens { ...InviteFields } }`, [InviteFields]),
    respond: (data) => ({ tokens: data.publicSignupTokens.map(withoutUrl) }),
    schemas: { response: z.strictObject({ tokens: z.array(inviteSchema) }) },
    errors: [403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/invite-link/tokens",
    tag: "Public signup tokens",
    summary: "Create an invite link (admins only)",
    description:
      "Body `{name, expiresAt}`. Users who sign up with it get the Viewer root role. The answer holds the link's `secret` and `url`: the only one that does (only the secret's hash is stored). Records public-signup-token-created.",
    status: 201,
    document: graphql(
      `mutation CreateInvite($input: CreatePublicSignupTokenInput!) {
        createPublicSignupToken(input: $input) { secret url token { ...InviteFields } } }`,
      [InviteFields],
    ),
    variables: { input: "body:object" },
    respond: ({ createPublicSignupToken: created }) => ({
      ...created.token,
      secret: created.secret,
      url: created.url,
    }),
    schemas: {
      body: z.strictObject({ name: z.string(), expiresAt: z.string().datetime({ offset: true }) }),
      response: createdInviteSchema,
    },
    errors: [400, 403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/invite-link/tokens/:token",
    tag: "Public signup tokens",
    summary: "Get an invite link (admins only)",
    description: "`token` is the link's secret or its `id`.",
    document: graphql(
      `query Invite($databaseId: Int, $secret: String) {
        publicSignupToken(databaseId: $databaseId, secret: $secret) { ...InviteFields } }`,
      [InviteFields],
    ),
    variables: (req) => inviteKeyOf(req.params.token),
    respond: (data) => {
      if (!data.publicSignupToken) throw new NotFoundError("Could not find the invite link");
      return withoutUrl(data.publicSignupToken);
    },
    schemas: { response: inviteSchema },
    errors: [403, 404],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/invite-link/tokens/:token",
    tag: "Public signup tokens",
    summary: "Change an invite link's expiry or enabled flag (admins only)",
    description:
      "`token` is the link's secret or its `id`. Body `{expiresAt?, enabled?}`, at least one (400 otherwise, as Unleash). Records public-signup-token-updated (nothing when unchanged).",
    document: graphql(
      `mutation UpdateInvite($databaseId: Int, $secret: String, $input: UpdatePublicSignupTokenInput!) {
        updatePublicSignupToken(databaseId: $databaseId, secret: $secret, input: $input) { ...InviteFields } }`,
      [InviteFields],
    ),
    variables: (req) => ({ ...inviteKeyOf(req.params.token), input: objectBody(req) }),
    respond: (data) => withoutUrl(data.updatePublicSignupToken),
    schemas: {
      body: z.strictObject({
        expiresAt: z.string().datetime({ offset: true }).optional(),
        enabled: z.boolean().optional(),
      }),
      response: inviteSchema,
    },
  }),
]);
