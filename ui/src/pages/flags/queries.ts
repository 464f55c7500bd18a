import { graphql } from "../../lib/graphql.ts";

export const FlagSearch = graphql(`
  query FlagSearch(
    $filter: FeatureSearchFilter
    $sort: FeatureSearchSort
    $favoritesFirst: Boolean
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    featureSearch(
      filter: $filter
      sort: $sort
      favoritesFirst: $favoritesFirst
      first: $first
      after: $after
      last: $last
      before: $before
    ) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges {
        cursor
        node {
          name
          project
          type
          description
          stale
          potentiallyStale
          archived
          favorite
          createdAt
          createdBy { id name }
          lifecycle { stage }
          tags { type value }
          segments
          environments { name enabled }
        }
      }
    }
  }
`);

/** What the filters offer to choose from. */
export const FilterOptions = graphql(`
  query FlagFilterOptions {
    projects { id databaseId name }
    featureTypes { id name }
    environments { id name }
    segments { id databaseId name }
    tags { type value }
  }
`);

export const CreateFlag = graphql(`
  mutation CreateFlag($project: String!, $input: CreateFeatureInput!) {
    createFeature(project: $project, input: $input) { id name project }
  }
`);

export const FavoriteFlag = graphql(`
  mutation FavoriteFlag($project: String!, $feature: String!) {
    favoriteFeature(project: $project, feature: $feature) { id favorite }
  }
`);

export const UnfavoriteFlag = graphql(`
  mutation UnfavoriteFlag($project: String!, $feature: String!) {
    unfavoriteFeature(project: $project, feature: $feature) { id favorite }
  }
`);
