import type { DocumentNode } from "graphql";

/** How requests are named in metrics labels and span names. */

/** Which surface a path belongs to: a bounded label, never the path itself. */
export function surfaceOf(path: string): string {
  if (path === "/graphql") return "graphql";
  for (const [prefix, name] of [
    ["/api/admin", "rest"],
    ["/api/client", "sdk"],
    ["/api/frontend", "frontend"],
    ["/ofrep", "ofrep"],
    ["/auth", "auth"],
  ] as const) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return name;
  }
  return "other";
}

/** The operation a GraphQL request runs: its type (query, mutation, subscription) and name. */
export function operationOf(document: DocumentNode, name?: string | null): { type: string; name?: string } {
  for (const d of document.definitions) {
    if (d.kind !== "OperationDefinition" || (name && d.name?.value !== name)) continue;
    return { type: d.operation, name: d.name?.value };
  }
  return { type: "unknown" };
}
