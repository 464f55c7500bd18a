import type { GraphiQLOptions } from "graphql-yoga";

/** What GraphiQL opens with: where the token goes, and a first query to run. */
export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: "Vexil GraphiQL",
  headers: JSON.stringify({ Authorization: "<your API token>" }, null, 2),
  defaultQuery:
    "{\n  viewer { name }\n  features(first: 10) { totalCount edges { node { id name enabled } } }\n}\n",
};

let page: Promise<string> | undefined;

/**
 * GraphiQL's page with its scripts and styles inlined from the npm package
 * `@graphql-yoga/render-graphiql`, so the browser loads nothing from a CDN and the page works
 * without internet access. The package is 9 MB of JavaScript: imported at the first visit (not
 * at start-up) and the page built once.
 */
export function renderOfflineGraphiQL(options: GraphiQLOptions): Promise<string> {
  page ??= import("@graphql-yoga/render-graphiql").then(({ renderGraphiQL }) => renderGraphiQL(options));
  return page;
}
