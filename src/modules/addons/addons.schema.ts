import { builder } from "../../builder.ts";
import { integerKey, NODE_ID } from "../../shared/node-ids.ts";
import { listWindow } from "../../shared/pagination.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { createAddon, deleteAddon, existingAddon, updateAddon } from "./addon.write.ts";
import {
  maskParameters,
  type ParameterDefinition,
  PROVIDERS,
  type ProviderDefinition,
} from "./providers.logic.ts";

builder.prismaNode("Addon", {
  description: "An integration configuration (spec 2.12): which events it reacts to and where it sends them.",
  nullable: true,
  id: { ...NODE_ID, field: "id" },
  findUnique: (id) => ({ id: integerKey(id) }),
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Addon id (REST API and arguments)." }),
    provider: t.exposeString("provider", { description: "Provider name, e.g. webhook." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    enabled: t.exposeBoolean("enabled", { description: "Disabled addons receive nothing." }),
    parameters: t.field({
      type: "JSON",
      description: "Provider parameters; sensitive ones (URL, authorization, headers) show as `*****`.",
      resolve: (a) => maskParameters(a.provider, a.parameters),
    }),
    events: t.exposeStringList("events", { description: "Event types it reacts to." }),
    projects: t.exposeStringList("projects", { description: "Projects it listens to; empty = all." }),
    environments: t.exposeStringList("environments", {
      description: "Environments it listens to; empty = all.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation time." }),
  }),
});

const ParameterDefinitionRef = builder.objectRef<ParameterDefinition>("AddonParameterDefinition").implement({
  description: "One parameter a provider takes.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Key in `parameters`." }),
    displayName: t.exposeString("displayName", { description: "Label for forms." }),
    type: t.exposeString("type", { description: "url, text or textfield." }),
    description: t.exposeString("description", { description: "What it does." }),
    placeholder: t.string({
      nullable: true,
      description: "Example value.",
      resolve: (p) => p.placeholder ?? null,
    }),
    required: t.exposeBoolean("required", { description: "Must be set." }),
    sensitive: t.exposeBoolean("sensitive", { description: "Never shown once stored (masked as *****)." }),
  }),
});

const ProviderRef = builder.objectRef<ProviderDefinition>("AddonProvider").implement({
  description: "A kind of integration addons can be created for, with its parameters and selectable events.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Provider name (the addon's `provider`)." }),
    displayName: t.exposeString("displayName", { description: "Human name." }),
    description: t.exposeString("description", { description: "What it does." }),
    documentationUrl: t.exposeString("documentationUrl", { description: "Where to read more." }),
    howTo: t.exposeString("howTo", { description: "How to set it up." }),
    parameters: t.field({
      type: [ParameterDefinitionRef],
      resolve: (p) => p.parameters,
      description: "Parameters.",
    }),
    events: t.exposeStringList("events", { description: "Event types it can react to." }),
    deprecated: t.string({
      nullable: true,
      description: "Why it is deprecated.",
      resolve: (p) => p.deprecated ?? null,
    }),
  }),
});

builder.prismaObject("IntegrationEvent", {
  description: "One handling of an event by an integration (spec 2.13): each delivery attempt is one.",
  fields: (t) => ({
    id: t.string({
      description: "Incrementing id (a big integer as a string).",
      resolve: (e) => e.id.toString(),
    }),
    integrationId: t.exposeInt("addonId", { description: "The addon." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was handled." }),
    state: t.exposeString("state", { description: "success, failed or successWithErrors." }),
    stateDetails: t.exposeString("stateDetails", { description: "What happened, e.g. the status code." }),
    event: t.expose("event", { type: "JSON", description: "The event handled (spec 2.10)." }),
    details: t.expose("details", { type: "JSON", description: "Webhook: {url, contentType, body}." }),
  }),
});

const AddonInput = builder.inputType("AddonInput", {
  description:
    "An addon's configuration (spec 2.12). A sensitive parameter sent as `*****` keeps its stored value.",
  fields: (t) => ({
    provider: t.string({ required: true, description: "Provider name (see addonProviders)." }),
    description: t.string({ description: "Free text." }),
    enabled: t.boolean({ description: "Default true." }),
    parameters: t.field({
      type: "JSON",
      description: "Provider parameters (string, number or boolean values).",
    }),
    events: t.stringList({ description: "Event types it reacts to." }),
    projects: t.stringList({ description: "Projects it listens to; empty = all." }),
    environments: t.stringList({ description: "Environments it listens to; empty = all." }),
  }),
});

type AddonArgs = typeof AddonInput.$inferInput;
const toInput = (input: AddonArgs) => ({
  provider: input.provider,
  description: input.description,
  enabled: input.enabled ?? undefined,
  parameters: (input.parameters ?? undefined) as Record<string, string> | undefined,
  events: input.events ?? undefined,
  projects: input.projects ?? undefined,
  environments: input.environments ?? undefined,
});

builder.queryField("addons", (t) =>
  t.prismaField({
    type: ["Addon"],
    description: "Every addon, by id.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.addon.findMany({ ...query, orderBy: { id: "asc" } }),
  }),
);

builder.queryField("addon", (t) =>
  t.prismaField({
    type: "Addon",
    description: "One addon (spec 4.11); NOT_FOUND when there is none.",
    authScopes: { authenticated: true },
    args: { id: t.arg.int({ required: true, description: "Addon id." }) },
    resolve: async (query, _root, args, ctx) => {
      await existingAddon({ tx: ctx.db }, args.id);
      return ctx.db.addon.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
);

builder.queryField("addonProviders", (t) =>
  t.field({
    type: [ProviderRef],
    description: "The providers addons can be created for, with their parameter definitions.",
    authScopes: { authenticated: true },
    resolve: () => PROVIDERS,
  }),
);

builder.queryField("addonEvents", (t) =>
  t.prismaField({
    type: ["IntegrationEvent"],
    description: "What an addon did with the events it got (spec 4.7), newest first.",
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    args: {
      id: t.arg.int({ required: true, description: "Addon id." }),
      first: t.arg.int({ description: "How many (default 50, at most 100)." }),
      offset: t.arg.int({ description: "How many to skip." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const window = listWindow(args, { defaultLimit: 50, maxLimit: 100 });
      // An unknown addon has simply handled nothing: Unleash answers an empty list, not 404.
      return ctx.db.integrationEvent.findMany({
        ...query,
        where: { addonId: args.id },
        orderBy: { id: "desc" },
        ...window,
      });
    },
  }),
);

builder.mutationField("createAddon", (t) =>
  t.prismaField({
    type: "Addon",
    description: "Creates an addon. Event: addon-config-created.",
    authScopes: { permission: { permission: PERMISSIONS.CREATE_ADDON } },
    args: { input: t.arg({ type: AddonInput, required: true, description: "The addon." }) },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createAddon(w, toInput(args.input), ctx.config.integrations);
        return w.tx.addon.findUniqueOrThrow({ ...query, where: { id: created.id } });
      });
    },
  }),
);

builder.mutationField("updateAddon", (t) =>
  t.prismaField({
    type: "Addon",
    description: "Replaces an addon's configuration. Event: addon-config-updated.",
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_ADDON } },
    args: {
      id: t.arg.int({ required: true, description: "Addon id." }),
      input: t.arg({ type: AddonInput, required: true, description: "The new configuration." }),
    },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateAddon(w, args.id, toInput(args.input), ctx.config.integrations);
        return w.tx.addon.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
);

builder.mutationField("deleteAddon", (t) =>
  t.int({
    description:
      "Deletes an addon, its pending deliveries and its log; returns its id. Event: addon-config-deleted.",
    authScopes: { permission: { permission: PERMISSIONS.DELETE_ADDON } },
    args: { id: t.arg.int({ required: true, description: "Addon id." }) },
    resolve: async (_root, args, ctx) => (await runWrite(ctx, (w) => deleteAddon(w, args.id))).id,
  }),
);
