import { z } from "zod";
import { defineRoutes } from "../route.ts";
import { bodyFields } from "./catalog-shared.ts";

const LINK_PATH = "/api/admin/projects/:projectId/features/:featureName/link";
const linkBody = z.object({
  url: z.string().describe("The URL (https:// is assumed when no scheme is given)."),
  title: z.string().nullable().optional().describe("What the link is."),
});
const linkInput = (body: unknown) => bodyFields(body, ["url", "title"]);

/** Unleash's flag links: 204 without a body; the flag's `links` shows them. */
export const featureLinkRoutes = defineRoutes([
  {
    method: "POST",
    path: LINK_PATH,
    tag: "Features",
    summary: "Create a feature link",
    description:
      "204. An http(s) URL (400 otherwise), at most 10 links per flag (403 past that). Event feature-link-added.",
    document: `mutation AddFeatureLink($project: String!, $feature: String!, $input: FeatureLinkInput!) {
      addFeatureLink(project: $project, feature: $feature, input: $input) { id } }`,
    variables: ({ params, body }) => ({
      project: params.projectId,
      feature: params.featureName,
      input: linkInput(body),
    }),
    status: 204,
    schemas: { body: linkBody },
    errors: [400, 403, 404, 415],
  },
  {
    method: "PUT",
    path: `${LINK_PATH}/:linkId`,
    tag: "Features",
    summary: "Update a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-updated.",
    document: `mutation UpdateFeatureLink($project: String!, $feature: String!, $id: String!, $input: FeatureLinkInput!) {
      updateFeatureLink(project: $project, feature: $feature, id: $id, input: $input) { id } }`,
    variables: ({ params, body }) => ({
      project: params.projectId,
      feature: params.featureName,
      id: params.linkId,
      input: linkInput(body),
    }),
    status: 204,
    schemas: { body: linkBody },
    errors: [400, 403, 404, 415],
  },
  {
    method: "DELETE",
    path: `${LINK_PATH}/:linkId`,
    tag: "Features",
    summary: "Delete a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-removed.",
    document: `mutation RemoveFeatureLink($project: String!, $feature: String!, $id: String!) {
      removeFeatureLink(project: $project, feature: $feature, id: $id) { id } }`,
    variables: ({ params }) => ({
      project: params.projectId,
      feature: params.featureName,
      id: params.linkId,
    }),
    status: 204,
    errors: [403, 404],
  },
]);
