import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";

/** Unleash's `environmentSchema`. */
export const EnvironmentFields = graphql(`
  fragment EnvironmentFields on Environment {
    name type enabled protected sortOrder projectCount enabledToggleCount
  }
`);

export const environmentSchema = resultSchema(EnvironmentFields);
