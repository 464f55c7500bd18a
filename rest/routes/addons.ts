import { z } from "zod";
import { bodyFields } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";
import { eventSchema } from "../schemas.ts";
import { integerParam, intParam } from "../search-params.ts";

const ADDON_FIELDS =
  "id: databaseId provider description enabled parameters events projects environments createdAt";
const PROVIDER_FIELDS = `name displayName description documentationUrl howTo events deprecated
  parameters { name displayName type description placeholder required sensitive }`;
const INTEGRATION_EVENT_FIELDS = "id integrationId createdAt state stateDetails event details";

const addonSchema = z.object({
  id: z.number().int().min(1),
  provider: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  parameters: z.record(z.string(), z.unknown()),
  events: z.array(z.string()),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: z.string().datetime(),
});

const addonBodySchema = z.object({
  provider: z.string(),
  description: z.string().nullish(),
  enabled: z.boolean().optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  events: z.array(z.string()).optional(),
  projects: z.array(z.string()).optional(),
  environments: z.array(z.string()).optional(),
});

const integrationEventSchema = z.object({
  id: z.string().regex(/^[0-9]+$/),
  integrationId: z.number().int(),
  createdAt: z.string().datetime(),
  state: z.enum(["success", "failed", "successWithErrors"]),
  stateDetails: z.string(),
  event: eventSchema,
  details: z.record(z.string(), z.unknown()),
});

/** Only the addon's own keys go on (Unleash strips unknown ones). */
const addonInput = (body: unknown) =>
  bodyFields(body, [
    "provider",
    "description",
    "enabled",
    "parameters",
    "events",
    "projects",
    "environments",
  ]);

export const addonRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/addons",
    tag: "Addons",
    summary: "List addons and the providers they can use",
    document: `query Addons { addons { ${ADDON_FIELDS} } addonProviders { ${PROVIDER_FIELDS} } }`,
    respond: (data) => ({ addons: data.addons, providers: data.addonProviders }),
    schemas: {
      response: z.object({
        addons: z.array(addonSchema),
        providers: z.array(z.record(z.string(), z.unknown())),
      }),
    },
    errors: [],
  },
  {
    method: "POST",
    path: "/api/admin/addons",
    tag: "Addons",
    summary: "Create an addon",
    description: "Event: addon-config-created. Sensitive parameters are masked (`*****`) in the answer.",
    document: `mutation CreateAddon($input: AddonInput!) { createAddon(input: $input) { ${ADDON_FIELDS} } }`,
    variables: ({ body }) => ({ input: addonInput(body) }),
    // 201 as the running Unleash 8.2 answers (its OpenAPI document says 200; the server wins).
    status: 201,
    schemas: { body: addonBodySchema, response: addonSchema },
    errors: [400, 403],
  },
  {
    method: "GET",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Get an addon (spec 4.11)",
    document: `query Addon($id: Int!) { addon(id: $id) { ${ADDON_FIELDS} } }`,
    variables: (req) => ({ id: intParam(req, "id") }),
    schemas: { response: addonSchema },
    errors: [400, 404],
  },
  {
    method: "PUT",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Update an addon",
    description: "Event: addon-config-updated. A sensitive parameter sent as `*****` keeps its stored value.",
    document: `mutation UpdateAddon($id: Int!, $input: AddonInput!) { updateAddon(id: $id, input: $input) { ${ADDON_FIELDS} } }`,
    variables: (req) => ({ id: intParam(req, "id"), input: addonInput(req.body) }),
    schemas: { body: addonBodySchema, response: addonSchema },
  },
  {
    method: "DELETE",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Delete an addon",
    description: "Event: addon-config-deleted. Pending deliveries and the addon's log go with it.",
    document: "mutation DeleteAddon($id: Int!) { deleteAddon(id: $id) }",
    variables: (req) => ({ id: intParam(req, "id") }),
    emptyBody: true,
  },
  {
    method: "GET",
    path: "/api/admin/addons/:id/events",
    tag: "Addons",
    summary: "List events of an integration (spec 4.7)",
    description:
      "Each handling of an event by the addon, newest first. `limit` default 50 (at most 100), `offset` default 0.",
    document: `query AddonEvents($id: Int!, $first: Int, $offset: Int) {
      addonEvents(id: $id, first: $first, offset: $offset) { ${INTEGRATION_EVENT_FIELDS} } }`,
    variables: (req) => ({
      id: intParam(req, "id"),
      first: integerParam(req.query, "limit"),
      offset: integerParam(req.query, "offset"),
    }),
    respond: (data) => ({ integrationEvents: data.addonEvents }),
    schemas: {
      query: z.object({ limit: z.string().optional(), offset: z.string().optional() }),
      response: z.object({ integrationEvents: z.array(integrationEventSchema) }),
    },
  },
]);
