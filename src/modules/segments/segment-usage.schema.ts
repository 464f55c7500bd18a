import { builder } from "../../builder.ts";
import { NameExistsError } from "../../shared/errors.ts";
import { strategiesUsingSegment } from "../feature-environments/strategy.read.ts";

builder.prismaObjectField("FeatureStrategy", "project", (t) =>
  t.exposeString("projectId", { description: "The project of the strategy's flag." }),
);

builder.queryFields((t) => ({
  validateSegmentName: t.boolean({
    description: "Checks a name for a new segment: true when free, NAME_EXISTS when a segment holds it.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "The name to check." }) },
    resolve: async (_root, args, ctx) => {
      if (await ctx.db.segment.findUnique({ where: { name: args.name }, select: { id: true } })) {
        throw new NameExistsError(`There is already a segment named "${args.name}"`);
      }
      return true;
    },
  }),
  segmentStrategies: t.prismaField({
    type: ["FeatureStrategy"],
    description:
      "The strategies that use a segment (archived flags' too), by flag, environment and position; empty for an unknown segment.",
    authScopes: { authenticated: true },
    args: { id: t.arg.int({ required: true, description: "Segment id." }) },
    resolve: (query, _root, args, ctx) => strategiesUsingSegment(ctx.db, query, args.id),
  }),
  strategySegments: t.prismaField({
    type: ["Segment"],
    description: "The segments a strategy uses, by id; empty for an unknown strategy.",
    authScopes: { authenticated: true },
    args: { strategyId: t.arg.string({ required: true, description: "Strategy id." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.segment.findMany({
        ...query,
        where: { strategies: { some: { strategyId: args.strategyId } } },
        orderBy: { id: "asc" },
      }),
  }),
}));
