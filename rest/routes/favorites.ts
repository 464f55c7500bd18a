import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const FEATURE_PATH = "/api/admin/projects/:projectId/features/:featureName/favorites";
const PROJECT_PATH = "/api/admin/projects/:projectId/favorites";

export const favoriteRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: FEATURE_PATH,
    tag: "Favorites",
    summary: "Favourite a flag (for the caller)",
    document: graphql(`mutation FavoriteFeature($project: String!, $feature: String!) {
      favoriteFeature(project: $project, feature: $feature) { name } }`),
    variables: { project: "path.projectId", feature: "path.featureName" },
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: FEATURE_PATH,
    tag: "Favorites",
    summary: "Unfavourite a flag",
    document: graphql(`mutation UnfavoriteFeature($project: String!, $feature: String!) {
      unfavoriteFeature(project: $project, feature: $feature) { name } }`),
    variables: { project: "path.projectId", feature: "path.featureName" },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: PROJECT_PATH,
    tag: "Favorites",
    summary: "Favourite a project (for the caller)",
    document: graphql(
      `mutation FavoriteProject($project: String!) { favoriteProject(project: $project) { databaseId } }`,
    ),
    variables: { project: "path.projectId" },
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: PROJECT_PATH,
    tag: "Favorites",
    summary: "Unfavourite a project",
    document: graphql(
      `mutation UnfavoriteProject($project: String!) { unfavoriteProject(project: $project) { databaseId } }`,
    ),
    variables: { project: "path.projectId" },
    emptyBody: true,
  }),
]);
