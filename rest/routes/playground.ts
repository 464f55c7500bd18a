import { z } from "zod";
import { MAX_COMBINATIONS } from "../../src/modules/playground/playground.logic.ts";
import { objectBody } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import {
  advancedPlaygroundAnswer,
  evaluationInput,
  FlagEvaluationFields,
  playgroundAnswer,
} from "../mappers/playground.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { variantSchema } from "./strategy-shapes.ts";

const sdkContextSchema = z
  .object({
    appName: z.string().optional(),
    userId: z.string().optional(),
    sessionId: z.string().optional(),
    remoteAddress: z.string().optional(),
    environment: z.string().optional(),
    currentTime: z.string().optional(),
    properties: z.record(z.string(), z.string()).optional(),
  })
  .catchall(z.string());
const projectsSchema = z.union([z.array(z.string()), z.literal("*")]).optional();

/** Unleash's playgroundFeatureSchema and its parts, as rest/mappers/playground.ts builds them. */
const evaluatedConstraintSchema = z.object({
  contextName: z.string(),
  operator: z.string(),
  inverted: z.boolean(),
  caseInsensitive: z.boolean(),
  result: z.boolean(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});
const playgroundVariantSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  payload: z.object({ type: z.string(), value: z.string() }).optional(),
  feature_enabled: z.boolean(),
  featureEnabled: z.boolean(),
});
const playgroundFeatureSchema = z.object({
  name: z.string(),
  projectId: z.string(),
  strategies: z.object({
    result: z.union([z.boolean(), z.literal("unknown")]),
    data: z.array(
      z.object({
        name: z.string(),
        title: z.string().optional(),
        id: z.string(),
        result: z.object({
          evaluationStatus: z.enum(["complete", "incomplete", "unevaluated"]),
          enabled: z.union([z.boolean(), z.literal("unknown")]),
          variant: playgroundVariantSchema.optional(),
        }),
        disabled: z.boolean(),
        segments: z.array(
          z.object({
            id: z.number().int(),
            name: z.string(),
            result: z.boolean(),
            constraints: z.array(evaluatedConstraintSchema),
          }),
        ),
        constraints: z.array(evaluatedConstraintSchema),
        parameters: z.record(z.string(), z.string()),
        links: z.object({ edit: z.string() }),
      }),
    ),
  }),
  hasUnsatisfiedDependency: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  isEnabled: z.boolean(),
  variant: playgroundVariantSchema,
  variants: z.array(variantSchema),
});
const playgroundInputSchema = z.object({
  projects: z.union([z.array(z.string()), z.literal("*")]),
  context: z.record(z.string(), z.unknown()),
});

export const playgroundRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: "/api/admin/playground",
    tag: "Playground",
    summary: "Evaluate every flag of an environment for one context",
    description:
      "Unleash's playground: each flag's result, variant and each strategy's constraints and segments. Runs " +
      "the GraphQL `evaluate` query.",
    document: graphql(
      `query Playground($environment: String!, $context: EvaluationContextInput!, $projects: [String!]) {
        evaluate(environment: $environment, context: $context, projects: $projects) { ...FlagEvaluationFields } }`,
      [FlagEvaluationFields],
    ),
    variables: (req) => {
      const body = objectBody(req);
      return { environment: body.environment, ...evaluationInput(body) };
    },
    respond: (data, req) => playgroundAnswer(data.evaluate, objectBody(req)),
    schemas: {
      body: z.object({ environment: z.string(), projects: projectsSchema, context: sdkContextSchema }),
      response: z.object({
        input: playgroundInputSchema.extend({ environment: z.string() }),
        features: z.array(playgroundFeatureSchema),
      }),
    },
    errors: [400, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/playground/advanced",
    tag: "Playground",
    summary: "Evaluate every flag in several environments for every combination of context values",
    description:
      "A context value with commas is a list; every combination of the lists is evaluated (at most " +
      `${MAX_COMBINATIONS}), in every environment given. Runs the GraphQL \`evaluateMany\` query.`,
    document: graphql(
      `query AdvancedPlayground($environments: [String!]!, $context: EvaluationContextInput!, $projects: [String!]) {
        evaluateMany(environments: $environments, contexts: [$context], projects: $projects, combineLists: true) {
          environment context flags { ...FlagEvaluationFields } } }`,
      [FlagEvaluationFields],
    ),
    variables: (req) => {
      const body = objectBody(req);
      return { environments: body.environments, ...evaluationInput(body) };
    },
    respond: (data, req) => advancedPlaygroundAnswer(data.evaluateMany, objectBody(req)),
    schemas: {
      body: z.object({
        environments: z.array(z.string()).min(1),
        projects: projectsSchema,
        context: sdkContextSchema,
      }),
      response: z.object({
        input: playgroundInputSchema.extend({ environments: z.array(z.string()) }),
        features: z.array(
          z.object({
            name: z.string(),
            projectId: z.string(),
            environments: z.record(
              z.string(),
              z.array(
                playgroundFeatureSchema
                  .omit({ hasUnsatisfiedDependency: true })
                  .extend({ environment: z.string(), context: z.record(z.string(), z.string()) }),
              ),
            ),
          }),
        ),
      }),
    },
    errors: [400, 404],
  }),
]);
