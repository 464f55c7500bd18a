import { z } from "zod";
import { EVENT_FIELDS } from "../fragments.ts";
import { defineRoutes } from "../route.ts";
import { eventSchema } from "../schemas.ts";

type EventPage = { totalCount: number; edges: { node: unknown }[] };

export const eventRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/events/:featureName",
    tag: "Events",
    summary: "List events of a flag (spec 4.8)",
    description: "Newest first. An unknown flag answers 200 with an empty list.",
    deprecated: true,
    document: `query FeatureEvents($feature: String!) {
      events(filter: { features: [$feature] }, first: 1000) { totalCount edges { node { ${EVENT_FIELDS} } } }
    }`,
    variables: ({ params }) => ({ feature: params.featureName }),
    respond: (data, { params }) => {
      const page = data.events as EventPage;
      return {
        version: 1,
        toggleName: params.featureName,
        events: page.edges.map((e) => e.node),
        totalEvents: page.totalCount,
      };
    },
    schemas: {
      response: z.object({
        version: z.literal(1),
        toggleName: z.string(),
        events: z.array(eventSchema),
        totalEvents: z.number().int(),
      }),
    },
    errors: [],
  },
]);
