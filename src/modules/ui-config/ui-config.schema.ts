import { builder } from "../../builder.ts";
import type { ResourceLimits } from "../../config.ts";
import type { Context } from "../../context.ts";
import { runWrite } from "../../shared/write.ts";
import { VERSION } from "../../version.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { isMaintenanceMode } from "../maintenance/maintenance.read.ts";
import { setFrontendApiOrigins } from "./frontend-settings.write.ts";

type Link = { value: string; icon: string; href: string; title: string };

/** The instance UI configuration (spec 2.14), built from configuration only: no network call. */
export async function uiConfig(ctx: Context) {
  const { config } = ctx;
  const instanceId = await ctx.services.instanceId.get();
  return {
    slogan: "Feature flags for everyone.",
    name: "Vexil",
    version: VERSION,
    environment: "Open Source",
    billing: "subscription",
    unleashUrl: config.publicUrl,
    baseUriPath: config.baseUriPath,
    feedbackUriPath: "",
    disablePasswordAuth: config.auth.disablePasswordAuth,
    emailEnabled: false,
    maintenanceMode: await isMaintenanceMode(ctx.db),
    segmentValuesLimit: config.limits.segmentValues,
    strategySegmentsLimit: config.limits.strategySegments,
    resourceLimits: config.limits,
    networkViewEnabled: false,
    frontendApiOrigins: await ctx.services.frontendOrigins.get(),
    flags: {},
    links: [] as Link[],
    authenticationType: config.auth.type,
    versionInfo: {
      current: { oss: VERSION, enterprise: "" },
      latest: {},
      isLatest: true,
      instanceId,
    },
    oidcConfiguredThroughEnv: false,
    samlConfiguredThroughEnv: false,
    unleashAIAvailable: false,
  };
}

type UiConfig = Awaited<ReturnType<typeof uiConfig>>;

const LIMIT_DESCRIPTIONS: Record<keyof ResourceLimits, string> = {
  featureFlags: "Active (non-archived) flags.",
  featureEnvironmentStrategies: "Strategies per flag per environment.",
  constraints: "Constraints per strategy.",
  constraintValues: "Values in one constraint.",
  segments: "Segments.",
  strategySegments: "Segments per strategy.",
  segmentValues: "Constraint values in one segment.",
  apiTokens: "Client, frontend and admin API tokens together (personal access tokens excluded).",
  projects: "Projects.",
  environments: "Environments.",
  actionSetActions: "Actions per action set.",
  actionSetsPerProject: "Action sets per project.",
  actionSetFilters: "Filters per action set.",
  actionSetFilterValues: "Values per action-set filter.",
  signalEndpoints: "Signal endpoints.",
  signalTokensPerEndpoint: "Tokens per signal endpoint.",
};

const ResourceLimitsRef = builder.objectRef<ResourceLimits>("ResourceLimits").implement({
  description: "The instance's resource limits (spec section 8), from configuration.",
  fields: (t) =>
    Object.fromEntries(
      Object.entries(LIMIT_DESCRIPTIONS).map(([name, description]) => [
        name,
        t.exposeInt(name as keyof ResourceLimits, { description }),
      ]),
    ),
});

const LinkRef = builder.objectRef<Link>("UiLink").implement({
  description: "A link shown in the UI.",
  fields: (t) => ({
    value: t.exposeString("value", { description: "Text." }),
    icon: t.exposeString("icon", { description: "Icon name." }),
    href: t.exposeString("href", { description: "Target URL." }),
    title: t.exposeString("title", { description: "Tooltip." }),
  }),
});

const VersionRef = builder.objectRef<{ oss: string; enterprise: string }>("VersionNumbers").implement({
  description: "Version numbers of the builds.",
  fields: (t) => ({
    oss: t.exposeString("oss", { description: "Open-source version." }),
    enterprise: t.exposeString("enterprise", {
      description: "Enterprise version; empty: no enterprise build.",
    }),
  }),
});

const VersionInfoRef = builder.objectRef<UiConfig["versionInfo"]>("VersionInfo").implement({
  description: "The running version. Vexil makes no network call to learn of newer ones.",
  fields: (t) => ({
    current: t.field({ type: VersionRef, description: "Running version.", resolve: (v) => v.current }),
    latest: t.field({
      type: "JSON",
      description: "Newest known versions; an empty object (no update check).",
      resolve: (v) => v.latest,
    }),
    isLatest: t.exposeBoolean("isLatest", { description: "True: nothing newer is known." }),
    instanceId: t.exposeString("instanceId", { nullable: true, description: "This instance's id." }),
  }),
});

const UiConfigRef = builder.objectRef<UiConfig>("UiConfig").implement({
  description: "What the admin UI needs to know about the instance (spec 2.14).",
  fields: (t) => ({
    slogan: t.exposeString("slogan", { description: "Slogan." }),
    name: t.exposeString("name", { description: "Instance name." }),
    version: t.exposeString("version", { description: "Running version (package.json)." }),
    environment: t.exposeString("environment", { description: "Kind of instance." }),
    billing: t.exposeString("billing", { description: "subscription or pay-as-you-go." }),
    unleashUrl: t.exposeString("unleashUrl", { description: "Public URL of the instance (VEXIL_URL)." }),
    baseUriPath: t.exposeString("baseUriPath", { description: "BASE_URI_PATH." }),
    feedbackUriPath: t.exposeString("feedbackUriPath", {
      description: "Where a UI sends feedback; empty: Vexil collects none.",
    }),
    disablePasswordAuth: t.exposeBoolean("disablePasswordAuth", { description: "Password login is off." }),
    emailEnabled: t.exposeBoolean("emailEnabled", { description: "Vexil sends no email: always false." }),
    maintenanceMode: t.exposeBoolean("maintenanceMode", { description: "Maintenance mode." }),
    segmentValuesLimit: t.exposeInt("segmentValuesLimit", {
      description: "Deprecated: resourceLimits.segmentValues.",
      deprecationReason: "Use resourceLimits.segmentValues.",
    }),
    strategySegmentsLimit: t.exposeInt("strategySegmentsLimit", {
      description: "Deprecated: resourceLimits.strategySegments.",
      deprecationReason: "Use resourceLimits.strategySegments.",
    }),
    resourceLimits: t.field({
      type: ResourceLimitsRef,
      description: "Limits.",
      resolve: (c) => c.resourceLimits,
    }),
    networkViewEnabled: t.exposeBoolean("networkViewEnabled", { description: "Network view." }),
    frontendApiOrigins: t.exposeStringList("frontendApiOrigins", {
      description:
        "Origins whose pages may call the frontend API and OFREP (CORS, no cookies): set with setFrontendApiOrigins, else FRONTEND_API_ORIGINS.",
    }),
    flags: t.field({
      type: "JSON",
      description: "Experimental UI switches (none).",
      resolve: (c) => c.flags,
    }),
    links: t.field({ type: [LinkRef], description: "Extra UI links.", resolve: (c) => c.links }),
    authenticationType: t.exposeString("authenticationType", { description: "AUTH_TYPE." }),
    versionInfo: t.field({ type: VersionInfoRef, description: "Version.", resolve: (c) => c.versionInfo }),
    oidcConfiguredThroughEnv: t.exposeBoolean("oidcConfiguredThroughEnv", { description: "Always false." }),
    samlConfiguredThroughEnv: t.exposeBoolean("samlConfiguredThroughEnv", { description: "Always false." }),
    unleashAIAvailable: t.exposeBoolean("unleashAIAvailable", { description: "Always false." }),
  }),
});

builder.queryField("uiConfig", (t) =>
  t.field({
    type: UiConfigRef,
    description: "The instance UI configuration (spec 4.9).",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => uiConfig(ctx),
  }),
);

builder.mutationField("setFrontendApiOrigins", (t) =>
  t.stringList({
    description:
      "Sets the origins whose pages may call the frontend API and OFREP (CORS, never with cookies): `*` or http(s)://host[:port] each; replaces FRONTEND_API_ORIGINS from then on (admins only). Records setting-created / setting-updated (none when unchanged).",
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    args: {
      origins: t.arg.stringList({ required: true, description: "The origins; empty = none." }),
    },
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) => setFrontendApiOrigins(w, args.origins, ctx.config.auth.frontendApiOrigins)),
  }),
);
