/** GraphQL selections that produce the REST shapes of the spec, shared by routes. */

/** Spec 2.10 Event (plus Unleash's groupType/groupId). */
export const EVENT_FIELDS = /* GraphQL */ `
  id: databaseId createdAt type createdBy createdByUserId environment project featureName
  data preData tags { type value } label summary groupType groupId
`;

/** Spec 2.6 Strategy. */
export const STRATEGY_FIELDS = /* GraphQL */ `
  id: databaseId name title disabled featureName sortOrder segments parameters
  constraints { contextName operator caseInsensitive inverted values value }
  variants { name weight weightType stickiness payload { type value } }
`;

/** Spec 2.5 feature-environment variant. */
export const ENV_VARIANT_FIELDS = /* GraphQL */ `
  name weight weightType stickiness payload { type value } overrides { contextName values }
`;

/** Spec 2.7 Feature environment. */
export const FEATURE_ENVIRONMENT_FIELDS = /* GraphQL */ `
  name featureName environment type enabled sortOrder variantCount lastSeenAt
  changeRequestIds
  hasStrategies hasEnabledStrategies
  strategies { ${STRATEGY_FIELDS} }
  variants { ${ENV_VARIANT_FIELDS} }
`;

/** Spec 2.8 Feature: the record returned by the enable operation and the flag paths. */
export const FEATURE_FIELDS = /* GraphQL */ `
  name type description archived project enabled stale favorite impressionData
  createdAt createdBy { id name imageUrl } archivedAt lastSeenAt
  environments { ${FEATURE_ENVIRONMENT_FIELDS} }
  variants { ${ENV_VARIANT_FIELDS} }
  strategies { ${STRATEGY_FIELDS} }
  tags { type value }
  children
  lifecycle { stage enteredStageAt }
  dependencies { feature enabled variants }
  collaborators { users { id name imageUrl } }
  links { id url title feature }
`;
