import { graphql } from "./graphql.ts";

/** GraphQL selections that produce the REST shapes of the spec, shared by routes. */

/** Spec 2.10 Event (plus Unleash's groupType/groupId). */
export const EventFields = graphql(`
  fragment EventFields on Event {
    id: databaseId createdAt type createdBy createdByUserId environment project featureName
    data preData tags { type value } label summary groupType groupId
  }
`);

/** Spec 2.6 Strategy. */
export const StrategyFields = graphql(`
  fragment StrategyFields on Strategy {
    id: databaseId name title disabled featureName sortOrder segments parameters
    constraints { contextName operator caseInsensitive inverted values value }
    variants { name weight weightType stickiness payload { type value } }
  }
`);

/** Spec 2.5 feature-environment variant. */
export const EnvironmentVariantFields = graphql(`
  fragment EnvironmentVariantFields on EnvironmentVariant {
    name weight weightType stickiness payload { type value } overrides { contextName values }
  }
`);

/*
 * A spread costs a document two levels of depth in GraphQL Armor's count
 * (src/http/graphql-limits.ts), so a fragment here spreads no other: the flag fragments write
 * their strategies and variants out (as StrategyFields and EnvironmentVariantFields select them).
 */

/** Spec 2.7 Feature environment. */
export const FeatureEnvironmentFields = graphql(`
  fragment FeatureEnvironmentFields on FeatureEnvironment {
    name featureName environment type enabled sortOrder variantCount lastSeenAt
    changeRequestIds
    hasStrategies hasEnabledStrategies
    strategies {
      id: databaseId name title disabled featureName sortOrder segments parameters
      constraints { contextName operator caseInsensitive inverted values value }
      variants { name weight weightType stickiness payload { type value } }
    }
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
  }
`);

/** Spec 2.8 Feature: the record returned by the enable operation and the flag paths. */
export const FeatureFields = graphql(`
  fragment FeatureFields on Feature {
    name type description archived project enabled stale favorite impressionData
    createdAt createdBy { id name imageUrl } archivedAt lastSeenAt
    environments {
      name featureName environment type enabled sortOrder variantCount lastSeenAt
      changeRequestIds
      hasStrategies hasEnabledStrategies
      strategies {
        id: databaseId name title disabled featureName sortOrder segments parameters
        constraints { contextName operator caseInsensitive inverted values value }
        variants { name weight weightType stickiness payload { type value } }
      }
      variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    }
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    strategies {
      id: databaseId name title disabled featureName sortOrder segments parameters
      constraints { contextName operator caseInsensitive inverted values value }
      variants { name weight weightType stickiness payload { type value } }
    }
    tags { type value }
    children
    lifecycle { stage enteredStageAt }
    dependencies { feature enabled variants }
    collaborators { users { id name imageUrl } }
    links { id url title feature }
  }
`);
