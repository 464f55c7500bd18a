import { graphql } from "./graphql.ts";

/**
 * GraphQL selections that produce the REST shapes of the spec, shared by routes. A fragment here
 * spreads no other: GraphQL Armor counts each spread as two more levels of depth
 * (src/http/graphql-limits.ts), so nested shapes share their selection as a constant string
 * (`as const`: gql.tada types an interpolated literal like the rest of the document).
 */

/** Spec 2.6 Strategy. */
const STRATEGY = `
  id: databaseId name title disabled featureName sortOrder segments parameters
  constraints { contextName operator caseInsensitive inverted values value }
  variants { name weight weightType stickiness payload { type value } }
` as const;

/** Spec 2.5 feature-environment variant. */
export const ENVIRONMENT_VARIANT = `
  name weight weightType stickiness payload { type value } overrides { contextName values }
` as const;

/** Spec 2.7 Feature environment. */
const FEATURE_ENVIRONMENT = `
  name featureName environment type enabled sortOrder variantCount lastSeenAt
  changeRequestIds
  hasStrategies hasEnabledStrategies
  strategies { ${STRATEGY} }
  variants { ${ENVIRONMENT_VARIANT} }
` as const;

/** Spec 2.10 Event (plus Unleash's groupType/groupId). */
export const EventFields = graphql(`
  fragment EventFields on Event {
    id: databaseId createdAt type createdBy createdByUserId environment project featureName
    data preData tags { type value } label summary groupType groupId
  }
`);

export const StrategyFields = graphql(`fragment StrategyFields on Strategy { ${STRATEGY} }`);

export const EnvironmentVariantFields = graphql(
  `fragment EnvironmentVariantFields on EnvironmentVariant { ${ENVIRONMENT_VARIANT} }`,
);

export const FeatureEnvironmentFields = graphql(
  `fragment FeatureEnvironmentFields on FeatureEnvironment { ${FEATURE_ENVIRONMENT} }`,
);

/** Spec 2.8 Feature: the record returned by the enable operation and the flag paths. */
export const FeatureFields = graphql(`
  fragment FeatureFields on Feature {
    name type description archived project enabled stale favorite impressionData
    createdAt createdBy { id name imageUrl } archivedAt lastSeenAt
    environments { ${FEATURE_ENVIRONMENT} }
    variants { ${ENVIRONMENT_VARIANT} }
    strategies { ${STRATEGY} }
    tags { type value }
    children
    lifecycle { stage enteredStageAt }
    dependencies { feature enabled variants }
    collaborators { users { id name imageUrl } }
    links { id url title feature }
  }
`);
