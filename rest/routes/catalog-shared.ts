import { z } from "zod";
import { graphql } from "../graphql.ts";

/** Unleash's `environmentSchema`. */
export const EnvironmentFields = graphql(`
  fragment EnvironmentFields on Environment {
    name type enabled protected sortOrder projectCount enabledToggleCount
  }
`);

export const environmentSchema = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number().int(),
  projectCount: z.number().int(),
  enabledToggleCount: z.number().int(),
});
