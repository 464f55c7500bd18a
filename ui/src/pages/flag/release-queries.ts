import { graphql } from "../../lib/graphql.ts";

// The flag page's release plans (issue 41.4): a plan per environment, its milestones and
// safeguards, followed live, and the change requests pending for it where the environment needs
// review (D-26); the templates and impact metrics to make one from.

export const ReleasePlanFields = graphql(`
  fragment ReleasePlanFields on ReleasePlan {
    id
    databaseId
    name
    environment
    state
    version
    milestoneStartedAt
    nextMilestoneAt
    pauseReason
    activeMilestone { databaseId }
    milestones { databaseId name afterSeconds strategies { name parameters } }
    safeguards { databaseId metricName aggregationMode labelSelectors operator threshold windowSeconds action baseline }
    stepChangeRequest { databaseId state }
  }
`);

export const ReleasePlanQuery = graphql(
  `
  query ReleasePlan($project: String!, $feature: String!, $environment: String!) {
    releasePlan(project: $project, feature: $feature, environment: $environment) { ...ReleasePlanFields }
    releasePlanChangeRequests(project: $project, feature: $feature, environment: $environment) {
      databaseId state features { name changes { id action payload } }
    }
    releaseTemplates { databaseId name milestones { name } }
    impactMetrics(environment: $environment) { name type }
  }
`,
  [ReleasePlanFields],
);

export const ReleasePlanSubscription = graphql(
  `
  subscription ReleasePlanLive($project: String!, $feature: String!, $environment: String!) {
    releasePlan(project: $project, feature: $feature, environment: $environment) { ...ReleasePlanFields }
  }
`,
  [ReleasePlanFields],
);

export const SafeguardSeries = graphql(`
  query SafeguardSeries($name: String!, $environment: String!, $from: DateTime!, $to: DateTime!, $labels: JSON) {
    impactMetricSeries(name: $name, environment: $environment, from: $from, to: $to, labels: $labels) {
      appName labels points { minute value count p95 }
    }
  }
`);

export const ApplyReleaseTemplate = graphql(
  `
  mutation ApplyReleaseTemplate($project: String!, $feature: String!, $environment: String!, $template: String!,
    $safeguards: [SafeguardInput!], $start: Boolean) {
    applyReleaseTemplate(project: $project, feature: $feature, environment: $environment, template: $template,
      safeguards: $safeguards, start: $start) { ...ReleasePlanFields }
  }
`,
  [ReleasePlanFields],
);

export const CreateReleaseTemplate = graphql(`
  mutation CreateReleaseTemplate($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId name } }
`);

export const StartReleaseMilestone = graphql(
  `
  mutation StartReleaseMilestone($project: String!, $feature: String!, $environment: String!, $milestone: String!) {
    startReleaseMilestone(project: $project, feature: $feature, environment: $environment, milestone: $milestone) {
      ...ReleasePlanFields
    }
  }
`,
  [ReleasePlanFields],
);

export const PauseReleasePlan = graphql(
  `
  mutation PauseReleasePlan($project: String!, $feature: String!, $environment: String!) {
    pauseReleasePlan(project: $project, feature: $feature, environment: $environment) { ...ReleasePlanFields }
  }
`,
  [ReleasePlanFields],
);

export const ResumeReleasePlan = graphql(
  `
  mutation ResumeReleasePlan($project: String!, $feature: String!, $environment: String!) {
    resumeReleasePlan(project: $project, feature: $feature, environment: $environment) { ...ReleasePlanFields }
  }
`,
  [ReleasePlanFields],
);

export const RemoveReleasePlan = graphql(`
  mutation RemoveReleasePlan($project: String!, $feature: String!, $environment: String!) {
    removeReleasePlan(project: $project, feature: $feature, environment: $environment) { id }
  }
`);
