import { z } from "zod";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { eventSchema } from "../schemas.ts";

const AddonFields = graphql(`
  fragment AddonFields on Addon {
    id: databaseId provider description enabled parameters events projects environments createdAt
  }
`);

const ProviderFields = graphql(`
  fragment ProviderFields on AddonProvider {
    name displayName description documentationUrl howTo events deprecated
    parameters { name displayName type description placeholder required sensitive }
  }
`);

const addonSchema = resultSchema(AddonFields, { parameters: z.record(z.string(), z.unknown()) });

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
const addonInput = {
  bodyFields: ["provider", "description", "enabled", "parameters", "events", "projects", "environments"],
} as const;

export const addonRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/addons",
    tag: "Addons",
    summary: "List addons and the providers they can use",
    document: graphql(`query Addons { addons { ...AddonFields } addonProviders { ...ProviderFields } }`, [
      AddonFields,
      ProviderFields,
    ]),
    respond: (data) => ({ addons: data.addons, providers: data.addonProviders }),
    schemas: {
      response: z.object({
        addons: z.array(addonSchema),
        providers: z.array(resultSchema(ProviderFields)),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/addons",
    tag: "Addons",
    summary: "Create an addon",
    description: "Event: addon-config-created. Sensitive parameters are masked (`*****`) in the answer.",
    document: graphql(
      `mutation CreateAddon($input: AddonInput!) { createAddon(input: $input) { ...AddonFields } }`,
      [AddonFields],
    ),
    variables: { input: addonInput },
    // 201 as the running Unleash 8.2 answers (its OpenAPI document says 200; the server wins).
    status: 201,
    schemas: { body: addonBodySchema, response: addonSchema },
    errors: [400, 403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Get an addon (spec 4.11)",
    document: graphql(`query Addon($id: Int!) { addon(id: $id) { ...AddonFields } }`, [AddonFields]),
    variables: { id: "path.id:int" },
    schemas: { response: addonSchema },
    errors: [400, 404],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Update an addon",
    description: "Event: addon-config-updated. A sensitive parameter sent as `*****` keeps its stored value.",
    document: graphql(
      `mutation UpdateAddon($id: Int!, $input: AddonInput!) {
        updateAddon(id: $id, input: $input) { ...AddonFields } }`,
      [AddonFields],
    ),
    variables: { id: "path.id:int", input: addonInput },
    schemas: { body: addonBodySchema, response: addonSchema },
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/addons/:id",
    tag: "Addons",
    summary: "Delete an addon",
    description: "Event: addon-config-deleted. Pending deliveries and the addon's log go with it.",
    document: graphql("mutation DeleteAddon($id: Int!) { deleteAddon(id: $id) }"),
    variables: { id: "path.id:int" },
    emptyBody: true,
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/addons/:id/events",
    tag: "Addons",
    summary: "List events of an integration (spec 4.7)",
    description:
      "Each handling of an event by the addon, newest first. `limit` default 50 (at most 100), `offset` default 0.",
    document: graphql(`query AddonEvents($id: Int!, $first: Int, $offset: Int) {
      addonEvents(id: $id, first: $first, offset: $offset) {
        id integrationId createdAt state stateDetails event details } }`),
    variables: { id: "path.id:int", first: "query.limit:int", offset: "query.offset:int" },
    respond: (data) => ({ integrationEvents: data.addonEvents }),
    schemas: {
      query: z.object({ limit: z.string().optional(), offset: z.string().optional() }),
      response: z.object({ integrationEvents: z.array(integrationEventSchema) }),
    },
  }),
]);
