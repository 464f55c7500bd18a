import { z } from "zod";

/**
 * Unleash 8.2's export document (`exportResultSchema`), the format Vexil writes and reads.
 * Reading is tolerant, as a file from another Unleash version must import: unknown keys are
 * dropped, and only what an import uses is required. The shapes of strategies, constraints
 * and variants are checked by the same validation as the API that creates them.
 */
const legalValue = z.object({ value: z.string(), description: z.string().nullish() });

const exportedFeature = z.object({
  name: z.string().min(1),
  type: z.string().nullish(),
  description: z.string().nullish(),
  project: z.string().nullish(),
  stale: z.boolean().nullish(),
  impressionData: z.boolean().nullish(),
  archived: z.boolean().nullish(),
});

const exportedStrategy = z.object({
  id: z.string().nullish(),
  featureName: z.string().min(1),
  name: z.string().min(1),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  sortOrder: z.number().int().nullish(),
  segments: z.array(z.number().int()).nullish(),
  constraints: z.array(z.record(z.string(), z.unknown())).nullish(),
  variants: z.array(z.record(z.string(), z.unknown())).nullish(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
});

const exportedFeatureEnvironment = z.object({
  name: z.string().nullish(),
  featureName: z.string().nullish(),
  environment: z.string().nullish(),
  enabled: z.boolean(),
  variants: z.array(z.record(z.string(), z.unknown())).nullish(),
});

const exportedContextField = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  stickiness: z.boolean().nullish(),
  sortOrder: z.number().int().nullish(),
  legalValues: z.array(legalValue).nullish(),
});

const exportedFeatureTag = z.object({
  featureName: z.string().min(1),
  tagType: z.string().nullish(),
  tagValue: z.string(),
});

const exportedTagType = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  icon: z.string().nullish(),
  color: z.string().nullish(),
});

const exportedDependencies = z.object({
  feature: z.string().min(1),
  dependencies: z.array(
    z.object({
      feature: z.string().min(1),
      enabled: z.boolean().nullish(),
      variants: z.array(z.string()).nullish(),
    }),
  ),
});

export const exportDocumentSchema = z.object({
  features: z.array(exportedFeature),
  featureStrategies: z.array(exportedStrategy).default([]),
  featureEnvironments: z.array(exportedFeatureEnvironment).nullish(),
  contextFields: z.array(exportedContextField).nullish(),
  featureTags: z.array(exportedFeatureTag).nullish(),
  segments: z.array(z.object({ id: z.number().int(), name: z.string() })).nullish(),
  tagTypes: z.array(exportedTagType).default([]),
  dependencies: z.array(exportedDependencies).nullish(),
  links: z
    .array(
      z.object({
        feature: z.string().min(1),
        links: z.array(z.object({ url: z.string(), title: z.string().nullish() })),
      }),
    )
    .nullish(),
});

export type ExportDocument = z.output<typeof exportDocumentSchema>;
export type ExportedStrategy = z.output<typeof exportedStrategy>;
export type ExportedContextField = z.output<typeof exportedContextField>;
