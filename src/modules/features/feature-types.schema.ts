import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { setFeatureTypeLifetime } from "./feature-types.write.ts";

const FeatureTypeRef = builder.prismaObject("FeatureType", {
  description: "A kind of flag and how long such flags are expected to live (potentially-stale after that).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "release, experiment, operational, kill-switch or permission." }),
    name: t.exposeString("name", { description: "Display name." }),
    description: t.exposeString("description", { nullable: true, description: "What the type is for." }),
    lifetimeDays: t.exposeInt("lifetimeDays", {
      nullable: true,
      description: "Days until a flag of this type is potentially stale; null: never.",
    }),
  }),
});

builder.queryField("featureTypes", (t) =>
  t.prismaField({
    type: [FeatureTypeRef],
    description: "The flag types, in id order.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.featureType.findMany({ ...query, orderBy: { id: "asc" } }),
  }),
);

builder.mutationField("updateFeatureTypeLifetime", (t) =>
  t.prismaField({
    type: FeatureTypeRef,
    description:
      "Sets how many days flags of a type live before they are potentially stale; 0 or null: never. Event: feature-type-updated (none when unchanged).",
    args: {
      id: t.arg.string({ required: true, description: "Flag type id." }),
      lifetimeDays: t.arg.int({ description: "Days (0 or null: never); not negative." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await setFeatureTypeLifetime(w, args.id, args.lifetimeDays);
        return w.tx.featureType.findUniqueOrThrow({ ...query, where: { id: args.id } });
      }),
  }),
);
