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
