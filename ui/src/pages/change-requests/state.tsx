import { graphql } from "../../lib/graphql.ts";

/** What names and sums up a change request: a row of the list, the head of its page. */
export const ChangeRequestSummary = graphql(`
  fragment ChangeRequestSummary on ChangeRequest @_unmask {
    id
    databaseId
    title
    project
    environment
    state
    createdAt
    minApprovals
  }
`);

export const CHANGE_REQUEST_STATES = [
  "Draft",
  "In review",
  "Approved",
  "Scheduled",
  "Applied",
  "Cancelled",
  "Rejected",
];

const STATE_CLASS: Record<string, string> = {
  Approved: "badge on",
  Applied: "badge on",
  Rejected: "badge off",
  Cancelled: "badge off",
};

export function StateBadge(props: { state: string }) {
  return <span className={STATE_CLASS[props.state] ?? "badge"}>{props.state}</span>;
}

/** How a change request names a person: -42 is the shared user of admin API tokens. */
export function userLabel(user: { id: number; username: string | null }): string {
  return user.username ?? (user.id === -42 ? "an admin API token" : `user ${user.id}`);
}
