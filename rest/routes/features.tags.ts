import { z } from "zod";
import { defineRoutes } from "../route.ts";
import { flagTagSchema, tagBodySchema, tagSchema } from "../schemas.ts";

const PATH = "/api/admin/features/:featureName/tags";

export const featureTagRoutes = defineRoutes([
  {
    method: "GET",
    path: PATH,
    tag: "Tags",
    summary: "List a flag's tags",
    document: `query FeatureTags($feature: String!) { featureTags(feature: $feature) { type value color } }`,
    variables: (req) => ({ feature: req.params.featureName }),
    respond: (data) => ({ version: 1, tags: data.featureTags }),
    schemas: { response: z.object({ version: z.literal(1), tags: z.array(flagTagSchema) }) },
    errors: [404],
  },
  {
    method: "POST",
    path: PATH,
    tag: "Tags",
    summary: "Tag a flag",
    description: "201 with the tag. The tag type must exist (404); a new value is created.",
    document: `mutation AddFeatureTag($feature: String!, $type: String!, $value: String!) {
      addFeatureTag(feature: $feature, type: $type, value: $value) { type value } }`,
    variables: (req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      return { feature: req.params.featureName, type: b.type, value: b.value };
    },
    status: 201,
    schemas: { body: tagBodySchema, response: tagSchema },
  },
  {
    method: "DELETE",
    path: `${PATH}/:type/:value`,
    tag: "Tags",
    summary: "Remove a tag from a flag",
    document: `mutation RemoveFeatureTag($feature: String!, $type: String!, $value: String!) {
      removeFeatureTag(feature: $feature, type: $type, value: $value) { name } }`,
    variables: (req) => ({ feature: req.params.featureName, type: req.params.type, value: req.params.value }),
    emptyBody: true,
  },
]);
