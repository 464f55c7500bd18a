import { graphql } from "../../lib/graphql.ts";

export const StrategyFields = graphql(`
  fragment StrategyFields on Strategy {
    id
    databaseId
    name
    title
    disabled
    sortOrder
    parameters
    segments
    constraints { contextName operator values value inverted caseInsensitive }
    variants { name weight weightType stickiness payload { type value } }
  }
`);

export const EnvironmentFields = graphql(
  `
  fragment EnvironmentFields on FeatureEnvironment {
    id
    name
    type
    enabled
    sortOrder
    changeRequestIds
    strategies { ...StrategyFields }
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
  }
`,
  [StrategyFields],
);

export const FlagFields = graphql(
  `
  fragment FlagFields on Feature {
    id
    name
    project
    type
    description
    impressionData
    favorite
    stale
    potentiallyStale
    archived
    archivedAt
    createdAt
    lifecycle { stage status enteredStageAt }
    tags { type value }
    dependencies { feature enabled variants }
    children
    environments { ...EnvironmentFields }
  }
`,
  [EnvironmentFields],
);

export const FlagQuery = graphql(
  `
  query Flag($project: String!, $name: String!) {
    projectFeature(project: $project, name: $name) { ...FlagFields }
    changeRequestConfig(project: $project) { environment changeRequestEnabled requiredApprovals }
  }
`,
  [FlagFields],
);

/** The choices the editors offer; they change rarely, so one query for all of them. */
export const FlagChoicesQuery = graphql(`
  query FlagChoices($project: String!) {
    featureTypes { id name }
    tagTypes { name description }
    contextFields { name stickiness legalValues { value } }
    segments(project: $project) { id databaseId name }
    projectFeatures(project: $project) { id name }
    strategyDefinitions { name title deprecated editable parameters { name type description required } }
  }
`);

export const FlagChangedSubscription = graphql(
  `
  subscription FlagChanged($project: String!, $name: String!) {
    featureChanged(project: $project, feature: $name) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const UpdateFlag = graphql(
  `
  mutation UpdateFlag($project: String!, $name: String!, $input: UpdateFeatureInput!) {
    updateFeature(project: $project, name: $name, input: $input) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const SetStale = graphql(
  `
  mutation SetFlagStale($project: String!, $name: String!, $stale: Boolean!) {
    setFeaturesStale(project: $project, names: [$name], stale: $stale) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const ArchiveFlag = graphql(
  `
  mutation ArchiveFlag($project: String!, $name: String!) {
    archiveFeatures(project: $project, names: [$name]) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const ReviveFlag = graphql(
  `
  mutation ReviveFlag($project: String!, $name: String!) {
    reviveFeatures(project: $project, names: [$name]) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const FavoriteFlag = graphql(
  `
  mutation FavoriteFlag($project: String!, $name: String!) {
    favoriteFeature(project: $project, feature: $name) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const UnfavoriteFlag = graphql(
  `
  mutation UnfavoriteFlag($project: String!, $name: String!) {
    unfavoriteFeature(project: $project, feature: $name) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const CompleteFlag = graphql(
  `
  mutation CompleteFlag($project: String!, $name: String!, $status: CompletedStatus!, $statusValue: String) {
    completeFeature(project: $project, name: $name, status: $status, statusValue: $statusValue) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const UncompleteFlag = graphql(
  `
  mutation UncompleteFlag($project: String!, $name: String!) {
    uncompleteFeature(project: $project, name: $name) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const EnableEnvironment = graphql(
  `
  mutation EnableFlagEnvironment($project: String!, $name: String!, $environment: String!) {
    enableFeatureEnvironment(project: $project, feature: $name, environment: $environment) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const DisableEnvironment = graphql(
  `
  mutation DisableFlagEnvironment($project: String!, $name: String!, $environment: String!) {
    disableFeatureEnvironment(project: $project, feature: $name, environment: $environment) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const AddStrategy = graphql(
  `
  mutation AddFlagStrategy($project: String!, $name: String!, $environment: String!, $input: StrategyInput!) {
    addFeatureStrategy(project: $project, feature: $name, environment: $environment, input: $input) { ...StrategyFields }
  }
`,
  [StrategyFields],
);

export const UpdateStrategy = graphql(
  `
  mutation UpdateFlagStrategy(
    $project: String!, $name: String!, $environment: String!, $id: String!, $input: StrategyUpdateInput!
  ) {
    updateFeatureStrategy(project: $project, feature: $name, environment: $environment, id: $id, input: $input) {
      ...StrategyFields
    }
  }
`,
  [StrategyFields],
);

export const DeleteStrategy = graphql(
  `
  mutation DeleteFlagStrategy($project: String!, $name: String!, $environment: String!, $id: String!) {
    deleteFeatureStrategy(project: $project, feature: $name, environment: $environment, id: $id) { ...EnvironmentFields }
  }
`,
  [EnvironmentFields],
);

export const ReorderStrategies = graphql(
  `
  mutation ReorderFlagStrategies(
    $project: String!, $name: String!, $environment: String!, $order: [StrategySortOrderInput!]!
  ) {
    setFeatureStrategySortOrder(project: $project, feature: $name, environment: $environment, order: $order) {
      ...EnvironmentFields
    }
  }
`,
  [EnvironmentFields],
);

export const SetEnvironmentVariants = graphql(
  `
  mutation SetFlagEnvironmentVariants(
    $project: String!, $name: String!, $environment: String!, $variants: [EnvironmentVariantInput!]!
  ) {
    setFeatureEnvironmentVariants(project: $project, feature: $name, environment: $environment, variants: $variants) {
      ...EnvironmentFields
    }
  }
`,
  [EnvironmentFields],
);

export const ProposeChanges = graphql(`
  mutation ProposeFlagChanges($project: String!, $environment: String!, $changes: [ChangeRequestChangeInput!]!) {
    proposeChanges(project: $project, environment: $environment, changes: $changes) { id databaseId state title }
  }
`);

export const AddTag = graphql(`
  mutation AddFlagTag($name: String!, $type: String!, $value: String!) {
    addFeatureTag(feature: $name, type: $type, value: $value) { type value }
  }
`);

export const RemoveTag = graphql(
  `
  mutation RemoveFlagTag($name: String!, $type: String!, $value: String!) {
    removeFeatureTag(feature: $name, type: $type, value: $value) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const AddDependency = graphql(
  `
  mutation AddFlagDependency($project: String!, $name: String!, $input: AddDependencyInput!) {
    addFeatureDependency(project: $project, feature: $name, input: $input) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const RemoveDependency = graphql(
  `
  mutation RemoveFlagDependency($project: String!, $name: String!, $parent: String!) {
    removeFeatureDependency(project: $project, feature: $name, parent: $parent) { ...FlagFields }
  }
`,
  [FlagFields],
);

export const EventFields = graphql(`
  fragment FlagEventFields on Event {
    id
    databaseId
    type
    createdAt
    createdBy
    environment
    label
    summary
  }
`);

export const FlagEventsQuery = graphql(
  `
  query FlagEvents($filter: EventFilter!) {
    events(filter: $filter, first: 50) { totalCount edges { node { ...FlagEventFields } } }
  }
`,
  [EventFields],
);

export const FlagEventsSubscription = graphql(
  `
  subscription FlagEventsLive($afterId: Long!, $filter: EventFilter!) {
    events(afterId: $afterId, filter: $filter) { ...FlagEventFields }
  }
`,
  [EventFields],
);
