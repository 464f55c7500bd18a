import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { flagTagSchema, tagBodySchema, tagSchema } from "../schemas.ts";

const PATH = "/api/admin/features/:featureName/tags";

export const featureTagRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: PATH,
    tag: "Tags",
    summary: "List a flag's tags",
    document: graphql(
      `query FeatureTags($feature: String!) { featureTags(feature: $feature) { type value color } }`,
    ),
    variables: { feature: "path.featureName" },
    respond: (data) => ({ version: 1, tags: data.featureTags }),
    schemas: { response: z.object({ version: z.literal(1), tags: z.array(flagTagSchema) }) },
    errors: [404],
  }),
  typedRoute({
    method: "POST",
    path: PATH,
    tag: "Tags",
    summary: "Tag a flag",
    description: "201 with the tag. The tag type must exist (404); a new value is created.",
    document: graphql(`mutation AddFeatureTag($feature: String!, $type: String!, $value: String!) {
      addFeatureTag(feature: $feature, type: $type, value: $value) { type value } }`),
    variables: { feature: "path.featureName", type: "body.type", value: "body.value" },
    status: 201,
    schemas: { body: tagBodySchema, response: tagSchema },
  }),
  typedRoute({
    method: "DELETE",
    path: `${PATH}/:type/:value`,
    tag: "Tags",
    summary: "Remove a tag from a flag",
    document: graphql(`mutation RemoveFeatureTag($feature: String!, $type: String!, $value: String!) {
      removeFeatureTag(feature: $feature, type: $type, value: $value) { name } }`),
    variables: { feature: "path.featureName", type: "path.type", value: "path.value" },
    emptyBody: true,
  }),
]);
