import { builder } from "../../builder.ts";
import { existingProject } from "../project-insights/project-insights.read.ts";
import {
  type OutdatedSdk,
  outdatedSdks,
  type ProjectApplication,
  projectApplications,
} from "./project-applications.read.ts";

const SdkRef = builder.objectRef<ProjectApplication["sdks"][number]>("ApplicationSdk").implement({
  description: "An SDK an application's instances run.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "SDK package name, e.g. `unleash-client-node`." }),
    versions: t.exposeStringList("versions", { description: "Versions in use, sorted." }),
  }),
});

const ProjectApplicationRef = builder.objectRef<ProjectApplication>("ProjectApplication").implement({
  description: "An application that reported metrics for a project's flags.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Application name." }),
    environments: t.exposeStringList("environments", {
      description: "Environments it reported the project's flags in.",
    }),
    instances: t.exposeStringList("instances", {
      description: "Ids of its instances in those environments.",
    }),
    sdks: t.field({
      type: [SdkRef],
      description: "SDKs of those instances, by name.",
      resolve: (a) => a.sdks,
    }),
  }),
});

const ProjectApplicationsRef = builder
  .objectRef<{ total: number; applications: ProjectApplication[] }>("ProjectApplicationPage")
  .implement({
    description: "A page of a project's applications.",
    fields: (t) => ({
      total: t.exposeInt("total", { description: "Applications matching, all pages." }),
      applications: t.field({
        type: [ProjectApplicationRef],
        description: "This page.",
        resolve: (p) => p.applications,
      }),
    }),
  });

const OutdatedSdkRef = builder.objectRef<OutdatedSdk>("OutdatedSdk").implement({
  description: "An SDK version older than the one Unleash recommends, and who runs it.",
  fields: (t) => ({
    sdkVersion: t.exposeString("sdkVersion", { description: "`name:version`." }),
    applications: t.exposeStringList("applications", { description: "Applications running it, by name." }),
  }),
});

builder.queryFields((t) => ({
  projectApplications: t.field({
    type: ProjectApplicationsRef,
    description:
      "Applications that reported metrics for the project's flags, by name; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: {
      projectId: t.arg.string({ required: true, description: "Project id." }),
      query: t.arg.string({ description: "Only names containing this (case-insensitive)." }),
      offset: t.arg.int({ description: "Applications to skip." }),
      first: t.arg.int({ description: "Page size (default 50, at most 1000)." }),
      descending: t.arg.boolean({ description: "Names in descending order." }),
    },
    resolve: async (_root, args, ctx) => {
      await existingProject(ctx.db, args.projectId);
      return projectApplications(ctx.db, args.projectId, { ...args, descending: args.descending ?? false });
    },
  }),
  outdatedSdks: t.field({
    type: [OutdatedSdkRef],
    description:
      "SDK versions in use that Unleash reports as outdated, by version; with `projectId`, only applications that used its flags (NOT_FOUND for an unknown project).",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ description: "Only applications that used this project's flags." }) },
    resolve: async (_root, args, ctx) => {
      if (args.projectId) await existingProject(ctx.db, args.projectId);
      return outdatedSdks(ctx.db, args.projectId ?? undefined);
    },
  }),
}));
