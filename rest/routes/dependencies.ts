import { z } from "zod";
import { defineRoutes } from "../route.ts";

const PATH = "/api/admin/projects/:projectId/features/:featureName/dependencies";
const DOCUMENT_REMOVE = `mutation RemoveDependency($project: String!, $feature: String!, $parent: String) {
  removeFeatureDependency(project: $project, feature: $feature, parent: $parent) { name } }`;

export const dependencyRoutes = defineRoutes([
  {
    method: "POST",
    path: PATH,
    tag: "Dependencies",
    summary: "Add a parent dependency",
    description:
      "200, no body. 403 for itself, another project, an archived parent or a cycle; 403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose an `addDependency` change instead.",
    document: `mutation AddDependency($project: String!, $feature: String!, $input: AddDependencyInput!) {
      addFeatureDependency(project: $project, feature: $feature, input: $input) { name } }`,
    variables: (req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const input = Object.fromEntries(
        ["feature", "enabled", "variants"].filter((k) => b[k] !== undefined).map((k) => [k, b[k]]),
      );
      return { project: req.params.projectId, feature: req.params.featureName, input };
    },
    emptyBody: true,
    schemas: {
      body: z.object({
        feature: z.string(),
        enabled: z.boolean().optional(),
        variants: z.array(z.string()).optional(),
      }),
    },
  },
  {
    method: "DELETE",
    path: `${PATH}/:parent`,
    tag: "Dependencies",
    summary: "Remove the dependency on one parent",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose a `deleteDependency` change instead.",
    document: DOCUMENT_REMOVE,
    variables: (req) => ({
      project: req.params.projectId,
      feature: req.params.featureName,
      parent: req.params.parent,
    }),
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: PATH,
    tag: "Dependencies",
    summary: "Remove every dependency of a flag",
    description:
      "403 (`SKIP_CHANGE_REQUEST`) where an environment of the project requires change requests: propose a `deleteDependency` change instead.",
    document: DOCUMENT_REMOVE,
    variables: (req) => ({ project: req.params.projectId, feature: req.params.featureName, parent: null }),
    emptyBody: true,
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/dependencies",
    tag: "Dependencies",
    summary: "Whether any flag depends on another",
    description: "`true` or `false`, for the whole instance (as Unleash).",
    document: `query DependenciesExist { dependenciesExist }`,
    schemas: { response: z.boolean() },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:child/parents",
    tag: "Dependencies",
    summary: "Flags a flag could depend on",
    description: "Active flags of the project other than this one that have no parent of their own, by name.",
    document: `query PossibleParents($project: String!, $name: String!) {
      projectFeature(project: $project, name: $name) { possibleParents } }`,
    variables: (req) => ({ project: req.params.projectId, name: req.params.child }),
    respond: (data) => (data.projectFeature as { possibleParents: string[] }).possibleParents,
    schemas: { response: z.array(z.string()) },
    errors: [404],
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:parent/parent-variants",
    tag: "Dependencies",
    summary: "Variants a child could require of a parent",
    description: "The variant names of the flag's strategies and environments, distinct, by name.",
    document: `query ParentVariants($project: String!, $name: String!) {
      projectFeature(project: $project, name: $name) { parentVariantOptions } }`,
    variables: (req) => ({ project: req.params.projectId, name: req.params.parent }),
    respond: (data) => (data.projectFeature as { parentVariantOptions: string[] }).parentVariantOptions,
    schemas: { response: z.array(z.string()) },
    errors: [404],
  },
]);
