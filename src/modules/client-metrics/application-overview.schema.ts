import { z } from "zod";
import { builder } from "../../builder.ts";
import { parseInput } from "../../shared/validation.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.ts";
import { deleteApplication, saveApplication } from "./application-admin.ts";
import {
  type ApplicationOverview,
  applicationOverview,
  type OverviewEnvironment,
  recentInstances,
} from "./application-overview.read.ts";
import { ApplicationInstanceRef } from "./client-metrics.schema.ts";

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
      lastSeen: t.field({
        type: "DateTime",
        nullable: true,
        description: "When an instance there was last seen.",
        resolve: (e) => e.lastSeen,
      }),
      outdatedSdks: t.exposeStringList("outdatedSdks", {
        description: "SDK versions there older than Unleash's recommended minimum.",
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
    environments: t.field({
      type: [OverviewEnvironmentRef],
      description: "Environments it has instances in, by name.",
      resolve: (o) => o.environments,
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
    resolve: (_root, args, ctx) => applicationOverview(ctx.db, args.appName),
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

const ADMIN_STRING = z.string().max(1000).nullish();
const metadataInput = z.object({
  description: ADMIN_STRING,
  url: ADMIN_STRING,
  color: ADMIN_STRING,
  icon: ADMIN_STRING,
  strategies: z.array(z.string().min(1).max(100)).max(100).nullish(),
});

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
      const input = parseInput(metadataInput, args);
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
