import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const featuresBody = z.object({ features: z.array(z.string()) });
/** The body's `features` are the operations' `$names`. */
const bodyPaths = { names: "features" };
/** The project of the path and the flags of the body, as GraphQL arguments. */
const FLAGS = { project: "path.projectId", names: "body.features" } as const;

export const archiveRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/archive/validate",
    tag: "Archive",
    summary: "Validate archiving flags (spec 4.12)",
    description: "Parents that would orphan children outside the list, and whether links would be removed.",
    document: graphql(`query ArchiveValidation($project: String!, $features: [String!]!) {
      archiveValidation(project: $project, features: $features) { parentsWithChildFeatures hasDeletedDependencies } }`),
    variables: { project: "path.projectId", features: "body.features" },
    schemas: { body: featuresBody },
    errors: [400, 403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/archive",
    tag: "Archive",
    summary: "Archive flags",
    description: "202; all or nothing.",
    document: graphql(`mutation ArchiveFeatures($project: String!, $names: [String!]!) {
      archiveFeatures(project: $project, names: $names) { name } }`),
    bodyPaths,
    variables: FLAGS,
    status: 202,
    schemas: { body: featuresBody },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/stale",
    tag: "Archive",
    summary: "Mark flags stale or not",
    description: "202; an event only for flags whose value changes.",
    document: graphql(`mutation SetStale($project: String!, $names: [String!]!, $stale: Boolean!) {
      setFeaturesStale(project: $project, names: $names, stale: $stale) { name } }`),
    bodyPaths,
    variables: { ...FLAGS, stale: "body.stale" },
    status: 202,
    schemas: { body: featuresBody.extend({ stale: z.boolean() }) },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/revive",
    tag: "Archive",
    summary: "Revive archived flags",
    description: "200, no body. Revived flags are off in every environment.",
    document: graphql(`mutation ReviveFeatures($project: String!, $names: [String!]!) {
      reviveFeatures(project: $project, names: $names) { name } }`),
    bodyPaths,
    variables: FLAGS,
    emptyBody: true,
    schemas: { body: featuresBody },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/delete",
    tag: "Archive",
    summary: "Delete archived flags",
    description: "200, no body. Flags that are not archived are skipped.",
    document: graphql(`mutation DeleteFeatures($project: String!, $names: [String!]!) {
      deleteFeatures(project: $project, names: $names) }`),
    bodyPaths,
    variables: FLAGS,
    emptyBody: true,
    schemas: { body: featuresBody },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/archive/revive/:featureName",
    tag: "Archive",
    summary: "Revive one archived flag",
    description:
      "200, no body. Off in every environment afterwards. A flag that is not archived is left alone.",
    document: graphql(
      `mutation ReviveArchivedFeature($name: String!) { reviveArchivedFeature(name: $name) { name } }`,
    ),
    variables: { name: "path.featureName" },
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/archive/:featureName",
    tag: "Archive",
    summary: "Delete one archived flag for good",
    description: "200, no body. A flag that is not archived is left unchanged; an unknown one is 404.",
    document: graphql(
      `mutation DeleteArchivedFeature($name: String!) { deleteArchivedFeature(name: $name) }`,
    ),
    variables: { name: "path.featureName" },
    emptyBody: true,
    errors: [403, 404],
  }),
]);
