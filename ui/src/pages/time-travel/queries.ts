import { graphql } from "../../lib/graphql.ts";

export const Projects = graphql(`
  query TimeTravelProjects {
    projects { id databaseId name environments { id name } }
  }
`);

export const Snapshot = graphql(`
  query EnvironmentSnapshot($project: String!, $environment: String!, $at: DateTime!) {
    environmentSnapshot(project: $project, environment: $environment, at: $at) {
      at
      exactSince
      features {
        name
        exact
        since
        state {
          type
          archived
          environments {
            name
            enabled
            strategies {
              databaseId
              name
              title
              disabled
              sortOrder
              parameters
              segments
              constraints { contextName operator inverted value values }
            }
          }
        }
      }
    }
  }
`);

export const Changes = graphql(`
  query EnvironmentChanges($project: String!, $environment: String!, $from: DateTime!, $to: DateTime!) {
    changes(project: $project, environment: $environment, from: $from, to: $to) {
      name
      exact
      fields {
        field
        environment
        before
        after
        moreEvents
        events { id type createdBy createdAt }
      }
    }
  }
`);

export const RestoreFeature = graphql(`
  mutation RestoreFeature($project: String!, $name: String!, $at: DateTime!, $environments: [String!]) {
    restoreFeature(project: $project, name: $name, at: $at, environments: $environments) {
      events changeRequests { id environment } skipped { feature reason }
    }
  }
`);

export const RestoreEnvironment = graphql(`
  mutation RestoreEnvironment($project: String!, $environment: String!, $at: DateTime!) {
    restoreEnvironment(project: $project, environment: $environment, at: $at) {
      events changeRequests { id environment } skipped { feature reason }
    }
  }
`);
