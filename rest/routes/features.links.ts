import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const LINK_PATH = "/api/admin/projects/:projectId/features/:featureName/link";
const linkBody = z.object({
  url: z.string().describe("The URL (https:// is assumed when no scheme is given)."),
  title: z.string().nullable().optional().describe("What the link is."),
});
/** The flag of the path, as GraphQL arguments. */
const FLAG = { project: "path.projectId", feature: "path.featureName" } as const;
/** The link's fields, from the body. */
const LINK_INPUT = { bodyFields: ["url", "title"] } as const;

/** Adding and changing a link answer alike: 204, the link's fields in the body. */
const linkWrite = { tag: "Features", status: 204, schemas: { body: linkBody }, errors: [400, 403, 404, 415] };

/** Unleash's flag links: 204 without a body; the flag's `links` shows them. */
export const featureLinkRoutes = defineRoutes([
  typedRoute({
    ...linkWrite,
    method: "POST",
    path: LINK_PATH,
    summary: "Create a feature link",
    description:
      "204. An http(s) URL (400 otherwise), at most 10 links per flag (403 past that). Event feature-link-added.",
    document:
      graphql(`mutation AddFeatureLink($project: String!, $feature: String!, $input: FeatureLinkInput!) {
      addFeatureLink(project: $project, feature: $feature, input: $input) { id } }`),
    variables: { ...FLAG, input: LINK_INPUT },
  }),
  typedRoute({
    ...linkWrite,
    method: "PUT",
    path: `${LINK_PATH}/:linkId`,
    summary: "Update a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-updated.",
    document:
      graphql(`mutation UpdateFeatureLink($project: String!, $feature: String!, $id: String!, $input: FeatureLinkInput!) {
      updateFeatureLink(project: $project, feature: $feature, id: $id, input: $input) { id } }`),
    variables: { ...FLAG, id: "path.linkId", input: LINK_INPUT },
  }),
  typedRoute({
    method: "DELETE",
    path: `${LINK_PATH}/:linkId`,
    tag: "Features",
    summary: "Delete a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-removed.",
    document: graphql(`mutation RemoveFeatureLink($project: String!, $feature: String!, $id: String!) {
      removeFeatureLink(project: $project, feature: $feature, id: $id) { id } }`),
    variables: { ...FLAG, id: "path.linkId" },
    status: 204,
    errors: [403, 404],
  }),
]);
