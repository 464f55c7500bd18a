import { graphql } from "../../lib/graphql.ts";

export const EventFields = graphql(`
  fragment EventFields on Event {
    id
    databaseId
    createdAt
    type
    label
    summary
    createdBy
    createdByUserId
    project
    featureName
    environment
    data
    preData
    tags { type value }
  }
`);

/** One page of the search, and the newest event id overall: live updates start after it. */
export const EventLogQuery = graphql(
  `
  query EventLog($filter: EventSearchFilter, $first: Int, $after: String) {
    eventSearch(filter: $filter, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { ...EventFields } }
    }
    newest: eventSearch(first: 1) { edges { node { id databaseId } } }
  }
`,
  [EventFields],
);

export const LiveEventsSubscription = graphql(
  `
  subscription LiveEvents($afterId: Long, $filter: EventFilter) {
    events(afterId: $afterId, filter: $filter) { ...EventFields }
  }
`,
  [EventFields],
);

/** Is this event (`maxId`) the newest match of the search at or below it? Then it matches. */
export const EventMatchQuery = graphql(`
  query EventMatch($filter: EventSearchFilter) {
    eventSearch(filter: $filter, first: 1) { edges { node { id databaseId } } }
  }
`);
