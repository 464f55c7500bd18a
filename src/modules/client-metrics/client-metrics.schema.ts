import { builder, countedConnection } from "../../builder.ts";
import { pageRequest, toConnection } from "../../shared/pagination.ts";
import { parseInput } from "../../shared/validation.ts";
import { FeatureRef } from "../features/feature.schema.ts";
import {
  allStrategies,
  latestSdkVersion,
  type ProjectUsage,
  usageByProject,
} from "./application-summary.logic.ts";
import { hoursBackArg } from "./client-metrics.inputs.ts";
import {
  type Application,
  type ApplicationInstance,
  application,
  applicationsPage,
  applicationsSeeingFeature,
  type FeatureMetricsRow,
  featureMetrics,
  type SeenFlag,
  sinceHoursBack,
  type VariantCount,
} from "./client-metrics.read.ts";

const VariantCountRef = builder.objectRef<VariantCount>("VariantCount").implement({
  description: "How often SDKs returned one variant.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Variant name (`disabled` when no variant applied)." }),
    count: t.exposeInt("count", { description: "Times it was returned." }),
  }),
});

const FeatureMetricsBucketRef = builder.objectRef<FeatureMetricsRow>("FeatureMetricsBucket").implement({
  description: "One flag's evaluations reported by one application in one environment during one hour.",
  fields: (t) => ({
    featureName: t.exposeString("featureName", { description: "Flag name." }),
    environment: t.exposeString("environment", { description: "Environment of the reporting SDK token." }),
    appName: t.exposeString("appName", { description: "Application that evaluated the flag." }),
    hour: t.field({ type: "DateTime", description: "Start of the hour.", resolve: (r) => r.hour }),
    yes: t.exposeInt("yes", { description: "Evaluations to enabled." }),
    no: t.exposeInt("no", { description: "Evaluations to disabled." }),
    variants: t.field({
      type: [VariantCountRef],
      description: "Variant counts, by variant name.",
      resolve: (r) => r.variants,
    }),
  }),
});

export const ApplicationInstanceRef = builder
  .objectRef<ApplicationInstance>("ApplicationInstance")
  .implement({
    description: "One running instance of an application's SDK in one environment.",
    fields: (t) => ({
      instanceId: t.exposeString("instanceId", {
        description: "The SDK's instance id (`default` when it sent none).",
      }),
      environment: t.exposeString("environment", { description: "Environment of the SDK token it used." }),
      sdkType: t.exposeString("sdkType", {
        description: "`backend` (client token, /api/client) or `frontend` (frontend token, /api/frontend).",
      }),
      sdkVersion: t.exposeString("sdkVersion", { nullable: true, description: "SDK name and version." }),
      platformName: t.exposeString("platformName", { nullable: true, description: "Runtime, e.g. `node`." }),
      platformVersion: t.exposeString("platformVersion", { nullable: true, description: "Runtime version." }),
      strategies: t.exposeStringList("strategies", {
        description: "Strategies the SDK knows (from register).",
      }),
      startedAt: t.field({
        type: "DateTime",
        nullable: true,
        description: "When the SDK started (from register).",
        resolve: (i) => i.startedAt,
      }),
      interval: t.exposeInt("interval", { nullable: true, description: "Refresh interval it reported." }),
      createdAt: t.field({ type: "DateTime", description: "First seen.", resolve: (i) => i.createdAt }),
      lastSeenAt: t.field({
        type: "DateTime",
        description: "Last register or metrics call.",
        resolve: (i) => i.lastSeenAt,
      }),
    }),
  });

const SeenFlagRef = builder.objectRef<SeenFlag>("ApplicationSeenFlag").implement({
  description: "A flag an application reported metrics for (while its metrics are kept).",
  fields: (t) => ({
    featureName: t.exposeString("featureName", { description: "Flag name." }),
    project: t.exposeString("project", { description: "The flag's project." }),
    environments: t.exposeStringList("environments", { description: "Environments it was reported from." }),
  }),
});

const ProjectUsageRef = builder.objectRef<ProjectUsage>("ApplicationProjectUsage").implement({
  description: "A project whose flags an application reported metrics for.",
  fields: (t) => ({
    project: t.exposeString("project", { description: "Project id." }),
    environments: t.exposeStringList("environments", {
      description: "Environments its flags were reported from, sorted.",
    }),
  }),
});

const ApplicationRef = builder.objectRef<Application>("ClientApplication").implement({
  description: "An application using an SDK, known from its register and metrics calls.",
  fields: (t) => ({
    appName: t.exposeString("appName", { description: "The SDK's `appName`." }),
    createdAt: t.field({ type: "DateTime", description: "First seen.", resolve: (a) => a.createdAt }),
    lastSeenAt: t.field({
      type: "DateTime",
      description: "Last seen from any instance.",
      resolve: (a) => a.lastSeenAt,
    }),
    description: t.exposeString("description", { nullable: true, description: "Set by an admin." }),
    url: t.exposeString("url", { nullable: true, description: "Link to the application, set by an admin." }),
    color: t.exposeString("color", { nullable: true, description: "Display colour, set by an admin." }),
    icon: t.exposeString("icon", { nullable: true, description: "Display icon, set by an admin." }),
    declaredStrategies: t.exposeStringList("strategies", {
      description: "Strategies an admin declared for it (its instances report their own).",
    }),
    allStrategies: t.stringList({
      description: "Strategies an admin declared or any instance reported, once each, sorted.",
      resolve: (a) => allStrategies(a.strategies, a.instances),
    }),
    sdkVersion: t.string({
      nullable: true,
      description:
        "SDK version, as reported, of the most recently seen instance; null when it reported none.",
      resolve: (a) => latestSdkVersion(a.instances),
    }),
    instances: t.field({
      type: [ApplicationInstanceRef],
      description: "Its instances, by environment and instance id.",
      resolve: (a) => a.instances,
    }),
    usage: t.field({
      type: [ProjectUsageRef],
      description: "Projects of the flags it reported metrics for (and their environments), by project id.",
      resolve: (a) => usageByProject(a.seenFlags),
    }),
    seenFlags: t.field({
      type: [SeenFlagRef],
      description: "Flags it reported metrics for, by name.",
      resolve: (a) => a.seenFlags,
    }),
  }),
});

const ApplicationConnection = countedConnection(
  "ClientApplicationConnection",
  ApplicationRef,
  "Number of applications matching, across all pages.",
);

builder.queryField("featureMetrics", (t) =>
  t.field({
    type: [FeatureMetricsBucketRef],
    description:
      "A flag's SDK metrics per environment, application and hour, for the current hour and the `hoursBack - 1` before it, oldest first. Empty for an unknown flag.",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "Flag name." }),
      hoursBack: t.arg.int({ defaultValue: 24, description: "Hours to cover, 1 to 720 (default 24)." }),
      environment: t.arg.string({ description: "Only this environment." }),
      appName: t.arg.string({ description: "Only this application." }),
    },
    resolve: (_root, args, ctx) => {
      const hoursBack = parseInput(hoursBackArg, args.hoursBack);
      return featureMetrics(ctx.db, args.name, sinceHoursBack(ctx.now(), hoursBack), args);
    },
  }),
);

builder.queryField("featureApplications", (t) =>
  t.stringList({
    description: "Applications whose metrics for the flag are kept, by name.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Flag name." }) },
    resolve: (_root, args, ctx) => applicationsSeeingFeature(ctx.db, args.name),
  }),
);

builder.queryField("clientApplications", (t) =>
  t.field({
    type: ApplicationConnection,
    description: "Applications that registered or sent metrics, by name.",
    authScopes: { authenticated: true },
    args: {
      query: t.arg.string({ description: "Only names containing this (case-insensitive)." }),
      first: t.arg.int({ description: "Page size (default 1000, at most 1000)." }),
      after: t.arg.string({ description: "Cursor of the last application of the previous page." }),
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({
        description: "Cursor of the first application of the next page (pages backwards).",
      }),
      offset: t.arg.int({ description: "Applications to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx) => {
      const request = pageRequest(args, { defaultLimit: 1000, maxLimit: 1000 }, { name: "name", size: 1 });
      const page = await applicationsPage(ctx.db, args.query, request);
      return toConnection(page.items, request, page.total, (app) => [app.appName]);
    },
  }),
);

builder.queryField("clientApplication", (t) =>
  t.field({
    type: ApplicationRef,
    nullable: true,
    description: "One application by name, or null when none reported under it.",
    authScopes: { authenticated: true },
    args: { appName: t.arg.string({ required: true, description: "The SDK's `appName`." }) },
    resolve: (_root, args, ctx) => application(ctx.db, args.appName),
  }),
);

builder.objectField(FeatureRef, "metrics", (t) =>
  t.field({
    type: [FeatureMetricsBucketRef],
    description:
      "This flag's SDK metrics per environment, application and hour (see `Query.featureMetrics`).",
    args: {
      hoursBack: t.arg.int({ defaultValue: 24, description: "Hours to cover, 1 to 720 (default 24)." }),
      environment: t.arg.string({ description: "Only this environment." }),
    },
    resolve: (feature, args, ctx) => {
      const hoursBack = parseInput(hoursBackArg, args.hoursBack);
      return featureMetrics(ctx.db, feature.name, sinceHoursBack(ctx.now(), hoursBack), args);
    },
  }),
);
