import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const PATH = "/api/admin/projects/:projectId/features/:featureName/dependencies";
const DOCUMENT_REMOVE =
  graphql(`mutation RemoveDependency($project: String!, $feature: String!, $parent: String) {
  removeFeatureDependency(project: $project, feature: $feature, parent: $parent) { name } }`);
/** The child flag of the path, as GraphQL arguments. */
const CHILD = { project: "path.projectId", feature: "path.featureName" } as const;

export const dependencyRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: PATH,
    tag: "Dependencies",
    summary: "Add a parent dependency",
    description:
      "200, no body. 403 for itself, another project, an archived parent or a cycle; 403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose an `addDependency` change instead.",
    document:
      graphql(`mutation AddDependency($project: String!, $feature: String!, $input: AddDependencyInput!) {
      addFeatureDependency(project: $project, feature: $feature, input: $input) { name } }`),
    variables: { ...CHILD, input: { bodyFields: ["feature", "enabled", "variants"] } },
    emptyBody: true,
    schemas: {
      body: z.object({
        feature: z.string(),
        enabled: z.boolean().optional(),
        variants: z.array(z.string()).optional(),
      }),
    },
  }),
  typedRoute({
    method: "DELETE",
    path: `${PATH}/:parent`,
    tag: "Dependencies",
    summary: "Remove the dependency on one parent",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose a `deleteDependency` change instead.",
    document: DOCUMENT_REMOVE,
    variables: { ...CHILD, parent: "path.parent" },
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: PATH,
    tag: "Dependencies",
    summary: "Remove every dependency of a flag",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose a `deleteDependency` change instead.",
    document: DOCUMENT_REMOVE,
    variables: { ...CHILD, parent: null },
    emptyBody: true,
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/dependencies",
    tag: "Dependencies",
    summary: "Whether any flag depends on another",
    description: "`true` or `false`, for the whole instance (as Unleash).",
    document: graphql(`query DependenciesExist { dependenciesExist }`),
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:child/parents",
    tag: "Dependencies",
    summary: "Flags a flag could depend on",
    description: "Active flags of the project other than this one that have no parent of their own, by name.",
    document: graphql(`query PossibleParents($project: String!, $name: String!) {
      projectFeature(project: $project, name: $name) { possibleParents } }`),
    variables: { project: "path.projectId", name: "path.child" },
    respond: (data) => data.projectFeature.possibleParents,
    schemas: { response: z.array(z.string()) },
    errors: [404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:parent/parent-variants",
    tag: "Dependencies",
    summary: "Variants a child could require of a parent",
    description: "The variant names of the flag's strategies and environments, distinct, by name.",
    document: graphql(`query ParentVariants($project: String!, $name: String!) {
      projectFeature(project: $project, name: $name) { parentVariantOptions } }`),
    variables: { project: "path.projectId", name: "path.parent" },
    respond: (data) => data.projectFeature.parentVariantOptions,
    schemas: { response: z.array(z.string()) },
    errors: [404],
  }),
]);
