import { z } from "zod";
import { bodyFields } from "../body-fields.ts";
import { defineRoutes, type RestRequest, type Route } from "../route.ts";

const LINK_PATH = "/api/admin/projects/:projectId/features/:featureName/link";
const linkBody = z.object({
  url: z.string().describe("The URL (https:// is assumed when no scheme is given)."),
  title: z.string().nullable().optional().describe("What the link is."),
});
/** The flag (and, but for POST, the link) from the path; the link's fields from the body. */
const linkVariables = ({ params, body }: RestRequest) => ({
  project: params.projectId,
  feature: params.featureName,
  id: params.linkId,
  input: bodyFields(body, ["url", "title"]),
});

/** Adding and changing a link answer alike: 204, the link's fields in the body. */
const linkWrite = (
  route: Pick<Route, "method" | "path" | "summary" | "description" | "document">,
): Route => ({
  ...route,
  tag: "Features",
  variables: linkVariables,
  status: 204,
  schemas: { body: linkBody },
  errors: [400, 403, 404, 415],
});

/** Unleash's flag links: 204 without a body; the flag's `links` shows them. */
export const featureLinkRoutes = defineRoutes([
  linkWrite({
    method: "POST",
    path: LINK_PATH,
    summary: "Create a feature link",
    description:
      "204. An http(s) URL (400 otherwise), at most 10 links per flag (403 past that). Event feature-link-added.",
    document: `mutation AddFeatureLink($project: String!, $feature: String!, $input: FeatureLinkInput!) {
      addFeatureLink(project: $project, feature: $feature, input: $input) { id } }`,
  }),
  linkWrite({
    method: "PUT",
    path: `${LINK_PATH}/:linkId`,
    summary: "Update a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-updated.",
    document: `mutation UpdateFeatureLink($project: String!, $feature: String!, $id: String!, $input: FeatureLinkInput!) {
      updateFeatureLink(project: $project, feature: $feature, id: $id, input: $input) { id } }`,
  }),
  {
    method: "DELETE",
    path: `${LINK_PATH}/:linkId`,
    tag: "Features",
    summary: "Delete a feature link",
    description: "204. 404 for a link the flag does not have. Event feature-link-removed.",
    document: `mutation RemoveFeatureLink($project: String!, $feature: String!, $id: String!) {
      removeFeatureLink(project: $project, feature: $feature, id: $id) { id } }`,
    variables: linkVariables,
    status: 204,
    errors: [403, 404],
  },
]);
