import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { featureForQuery } from "../features/feature.read.ts";
import { projectForQuery } from "../projects/project.read.ts";
import { favoriteFeature, favoriteProject, unfavoriteFeature, unfavoriteProject } from "./favorites.write.ts";

builder.prismaObjectField("Project", "favorite", (t) =>
  t.boolean({
    description: "Whether the calling user (the shared admin-token user for admin API tokens) favourited it.",
    resolve: (p, _args, ctx) => ctx.loaders.isFavoriteProjectOfActor.load(p.id),
  }),
);

const flagArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  project: t.arg.string({ required: true, description: "Project id." }),
  feature: t.arg.string({ required: true, description: "Flag name." }),
});

for (const [field, run, event] of [
  ["favoriteFeature", favoriteFeature, "feature-favorited"],
  ["unfavoriteFeature", unfavoriteFeature, "feature-unfavorited"],
] as const) {
  builder.mutationField(field, (t) =>
    t.prismaField({
      type: "Feature",
      description: `Per-user favourite flag (${event}); no change, no event.`,
      args: flagArgs(t),
      authScopes: { authenticated: true },
      resolve: async (query, _root, args, ctx) => {
        return runWrite(ctx, async (w) => {
          await run(w, args.project, args.feature);
          return featureForQuery(w.tx, query, args.feature);
        });
      },
    }),
  );
}

for (const [field, run, event] of [
  ["favoriteProject", favoriteProject, "project-favorited"],
  ["unfavoriteProject", unfavoriteProject, "project-unfavorited"],
] as const) {
  builder.mutationField(field, (t) =>
    t.prismaField({
      type: "Project",
      description: `Per-user favourite project (${event}); no change, no event.`,
      args: { project: t.arg.string({ required: true, description: "Project id." }) },
      authScopes: { authenticated: true },
      resolve: async (query, _root, args, ctx) => {
        return runWrite(ctx, async (w) => {
          await run(w, args.project);
          return projectForQuery(w.tx, query, args.project);
        });
      },
    }),
  );
}
