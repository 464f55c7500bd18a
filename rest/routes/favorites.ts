import { defineRoutes } from "../route.ts";

const FEATURE_PATH = "/api/admin/projects/:projectId/features/:featureName/favorites";
const PROJECT_PATH = "/api/admin/projects/:projectId/favorites";

const featureVars = (req: { params: Record<string, string> }) => ({
  project: req.params.projectId,
  feature: req.params.featureName,
});
const projectVars = (req: { params: Record<string, string> }) => ({ project: req.params.projectId });

export const favoriteRoutes = defineRoutes([
  {
    method: "POST",
    path: FEATURE_PATH,
    tag: "Favorites",
    summary: "Favourite a flag (for the caller)",
    document: `mutation FavoriteFeature($project: String!, $feature: String!) {
      favoriteFeature(project: $project, feature: $feature) { name } }`,
    variables: featureVars,
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: FEATURE_PATH,
    tag: "Favorites",
    summary: "Unfavourite a flag",
    document: `mutation UnfavoriteFeature($project: String!, $feature: String!) {
      unfavoriteFeature(project: $project, feature: $feature) { name } }`,
    variables: featureVars,
    emptyBody: true,
  },
  {
    method: "POST",
    path: PROJECT_PATH,
    tag: "Favorites",
    summary: "Favourite a project (for the caller)",
    document: `mutation FavoriteProject($project: String!) { favoriteProject(project: $project) { databaseId } }`,
    variables: projectVars,
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: PROJECT_PATH,
    tag: "Favorites",
    summary: "Unfavourite a project",
    document: `mutation UnfavoriteProject($project: String!) { unfavoriteProject(project: $project) { databaseId } }`,
    variables: projectVars,
    emptyBody: true,
  },
]);
