import { z } from "zod";
import { defineRoutes, type RestRequest } from "../route.ts";

const names = (req: RestRequest) => (req.body as { features?: unknown } | undefined)?.features;
const featuresBody = z.object({ features: z.array(z.string()) });
/** The body's `features` are the operations' `$names`. */
const bodyPaths = { names: "features" };

export const archiveRoutes = defineRoutes([
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/archive/validate",
    tag: "Archive",
    summary: "Validate archiving flags (spec 4.12)",
    description: "Parents that would orphan children outside the list, and whether links would be removed.",
    document: `query ArchiveValidation($project: String!, $features: [String!]!) {
      archiveValidation(project: $project, features: $features) { parentsWithChildFeatures hasDeletedDependencies } }`,
    variables: (req) => ({ project: req.params.projectId, features: names(req) }),
    schemas: {
      body: featuresBody,
      response: z.object({
        parentsWithChildFeatures: z.array(z.string()),
        hasDeletedDependencies: z.boolean(),
      }),
    },
    errors: [400, 403],
  },
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/archive",
    tag: "Archive",
    summary: "Archive flags",
    description: "202; all or nothing.",
    document: `mutation ArchiveFeatures($project: String!, $names: [String!]!) {
      archiveFeatures(project: $project, names: $names) { name } }`,
    bodyPaths,
    variables: (req) => ({ project: req.params.projectId, names: names(req) }),
    status: 202,
    schemas: { body: featuresBody },
  },
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/stale",
    tag: "Archive",
    summary: "Mark flags stale or not",
    description: "202; an event only for flags whose value changes.",
    document: `mutation SetStale($project: String!, $names: [String!]!, $stale: Boolean!) {
      setFeaturesStale(project: $project, names: $names, stale: $stale) { name } }`,
    bodyPaths,
    variables: (req) => ({
      project: req.params.projectId,
      names: names(req),
      stale: (req.body as { stale?: unknown } | undefined)?.stale,
    }),
    status: 202,
    schemas: { body: featuresBody.extend({ stale: z.boolean() }) },
  },
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/revive",
    tag: "Archive",
    summary: "Revive archived flags",
    description: "200, no body. Revived flags are off in every environment.",
    document: `mutation ReviveFeatures($project: String!, $names: [String!]!) {
      reviveFeatures(project: $project, names: $names) { name } }`,
    bodyPaths,
    variables: (req) => ({ project: req.params.projectId, names: names(req) }),
    emptyBody: true,
    schemas: { body: featuresBody },
  },
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/delete",
    tag: "Archive",
    summary: "Delete archived flags",
    description: "200, no body. Flags that are not archived are skipped.",
    document: `mutation DeleteFeatures($project: String!, $names: [String!]!) {
      deleteFeatures(project: $project, names: $names) }`,
    bodyPaths,
    variables: (req) => ({ project: req.params.projectId, names: names(req) }),
    emptyBody: true,
    schemas: { body: featuresBody },
  },
  {
    method: "POST",
    path: "/api/admin/archive/revive/:featureName",
    tag: "Archive",
    summary: "Revive one archived flag",
    description:
      "200, no body. Off in every environment afterwards. A flag that is not archived is left alone.",
    document: `mutation ReviveArchivedFeature($name: String!) { reviveArchivedFeature(name: $name) { name } }`,
    variables: (req) => ({ name: req.params.featureName }),
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: "/api/admin/archive/:featureName",
    tag: "Archive",
    summary: "Delete one archived flag for good",
    description: "200, no body. A flag that is not archived is left unchanged; an unknown one is 404.",
    document: `mutation DeleteArchivedFeature($name: String!) { deleteArchivedFeature(name: $name) }`,
    variables: (req) => ({ name: req.params.featureName }),
    emptyBody: true,
    errors: [403, 404],
  },
]);
