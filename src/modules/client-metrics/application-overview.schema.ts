import { builder } from "../../builder.ts";
import { parseInput } from "../../shared/validation.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { deleteApplication, saveApplication } from "./application-admin.write.ts";
import {
  type ApplicationOverview,
  applicationOverview,
  type OverviewEnvironment,
  recentInstances,
} from "./application-overview.read.ts";
import { applicationMetadataInput } from "./client-metrics.inputs.ts";
import { ApplicationInstanceRef } from "./client-metrics.schema.ts";
import { type UnknownFlag, unknownFlags } from "./unknown-flags.read.ts";

const OverviewEnvironmentRef = builder
  .objectRef<OverviewEnvironment>("ApplicationEnvironmentOverview")
  .implement({
    description: "An application in one environment.",
    fields: (t) => ({
      name: t.exposeString("name", { description: "Environment." }),
      instanceCount: t.exposeInt("instanceCount", { description: "Instances there." }),
      sdks: t.exposeStringList("sdks", { description: "SDK versions (`name:version`) they run, sorted." }),
      frontendSdks: t.exposeStringList("frontendSdks", { description: "Those of frontend instances." }),
      backendSdks: t.exposeStringList("backendSdks", { description: "Those of backend instances." }),
      lastSeen: t.expose("lastSeen", {
        type: "DateTime",
        nullable: true,
        description: "When an instance there was last seen.",
      }),
      outdatedSdks: t.exposeStringList("outdatedSdks", {
        description: "SDK versions there older than Unleash's recommended minimum.",
      }),
      missingFeatures: t.exposeStringList("missingFeatures", {
        description: "Flag names it reported there in the last 24 hours that no flag has, sorted.",
      }),
    }),
  });

const OverviewRef = builder.objectRef<ApplicationOverview>("ApplicationOverview").implement({
  description: "What one application uses: projects, flags, environments, and what is wrong.",
  fields: (t) => ({
    projects: t.exposeStringList("projects", {
      description: "Projects of the flags it reported metrics for.",
    }),
    featureCount: t.exposeInt("featureCount", { description: "Flags it reported metrics for." }),
    environments: t.expose("environments", {
      type: [OverviewEnvironmentRef],
      description: "Environments it has instances in, by name.",
    }),
    missingStrategies: t.exposeStringList("missingStrategies", {
      description: "Strategies its SDKs reported that no strategy definition has.",
    }),
  }),
});

builder.queryFields((t) => ({
  applicationOverview: t.field({
    type: OverviewRef,
    nullable: true,
    description: "What one application uses; null when none reported under that name.",
    authScopes: { authenticated: true },
    args: { appName: t.arg.string({ required: true, description: "The SDK's `appName`." }) },
    resolve: (_root, args, ctx) => applicationOverview(ctx.db, args.appName, ctx.now()),
  }),
  applicationRecentInstances: t.field({
    type: [ApplicationInstanceRef],
    nullable: true,
    description:
      "An application's instances in one environment seen in the last 24 hours, most recent first; null when no application has that name.",
    authScopes: { authenticated: true },
    args: {
      appName: t.arg.string({ required: true, description: "The SDK's `appName`." }),
      environment: t.arg.string({ required: true, description: "Environment." }),
    },
    resolve: (_root, args, ctx) => recentInstances(ctx.db, args.appName, args.environment, ctx.now()),
  }),
}));

builder.mutationFields((t) => ({
  saveApplication: t.boolean({
    description:
      "Creates an application or sets its metadata (fields left out are kept); records application-created. UPDATE_APPLICATION.",
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_APPLICATION } },
    args: {
      appName: t.arg.string({ required: true, description: "The SDK's `appName`." }),
      description: t.arg.string({ description: "Free text." }),
      url: t.arg.string({ description: "Link to the application." }),
      color: t.arg.string({ description: "Display colour." }),
      icon: t.arg.string({ description: "Display icon." }),
      strategies: t.arg.stringList({ description: "Strategies it uses." }),
    },
    resolve: (_root, { appName, ...args }, ctx) => {
      const input = parseInput(applicationMetadataInput, args);
      return runWrite(ctx, (w) => saveApplication(w, appName, input));
    },
  }),
  deleteApplication: t.boolean({
    description:
      "Forgets an application and its instances (no event: SDK telemetry is not audited); an unknown name is a no-op. DELETE_APPLICATION.",
    authScopes: { permission: { permission: PERMISSIONS.DELETE_APPLICATION } },
    args: { appName: t.arg.string({ required: true, description: "The SDK's `appName`." }) },
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => deleteApplication(w, args.appName)),
  }),
}));

type UnknownReport = UnknownFlag["reports"][number];

const UnknownEnvironmentRef = builder
  .objectRef<UnknownReport["environments"][number]>("UnknownFlagEnvironment")
  .implement({
    description: "Where and when an application reported an unknown flag.",
    fields: (t) => ({
      environment: t.exposeString("environment", { description: "Environment of the SDK token." }),
      seenAt: t.field({ type: "DateTime", description: "Last reported there.", resolve: (e) => e.seenAt }),
    }),
  });

const UnknownReportRef = builder.objectRef<UnknownReport>("UnknownFlagReport").implement({
  description: "An application that reported an unknown flag.",
  fields: (t) => ({
    appName: t.exposeString("appName", { description: "The SDK's `appName`." }),
    environments: t.expose("environments", {
      type: [UnknownEnvironmentRef],
      description: "Environments it reported the flag in.",
    }),
  }),
});

const UnknownFlagRef = builder.objectRef<UnknownFlag>("UnknownFlag").implement({
  description: "A flag name SDKs evaluate that no flag has.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The name the SDKs used." }),
    lastSeenAt: t.field({ type: "DateTime", description: "Last reported.", resolve: (f) => f.lastSeenAt }),
    lastEventAt: t.expose("lastEventAt", {
      type: "DateTime",
      nullable: true,
      description: "Newest event about a flag of that name (one since deleted), if any.",
    }),
    reports: t.expose("reports", {
      type: [UnknownReportRef],
      description: "Who reported it, by application.",
    }),
  }),
});

builder.queryField("unknownFlags", (t) =>
  t.field({
    type: [UnknownFlagRef],
    description:
      "Flag names SDKs reported metrics for in the last 24 hours that match no flag, most recently seen first (at most 1000).",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => unknownFlags(ctx.db, ctx.now()),
  }),
);
