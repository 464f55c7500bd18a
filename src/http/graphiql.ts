import { createHash } from "node:crypto";
import type { GraphiQLOptions } from "graphql-yoga";
import { type HandlerRoute, noSuchPath, PUBLIC } from "./route-table.ts";
import { assetResponse, CONTENT_TYPES, IMMUTABLE, type StaticAsset } from "./static-asset.ts";

/**
 * What GraphiQL opens with: no header (the page adds the UI session's CSRF token when there is
 * a session: see renderOfflineGraphiQL), the session's cookie, and a first query saying how to
 * authenticate otherwise.
 */
export const GRAPHIQL_OPTIONS: GraphiQLOptions = {
  title: "Vexil GraphiQL",
  headers: "{}",
  credentials: "same-origin",
  defaultQuery: [
    "# Logged in to the Vexil UI? GraphiQL uses that session.",
    '# Otherwise put {"Authorization": "<an admin API token>"} in Headers and run a query:',
    "# the documentation explorer then reads the schema with it.",
    "{",
    "  viewer { name }",
    "  features(first: 10) { totalCount edges { node { id name enabled } } }",
    "}",
    "",
  ].join("\n"),
};

/** GraphiQL's files live under `/graphiql/<hash of the package's code>/`. */
export const GRAPHIQL_ASSETS = "/graphiql/";

type Bundle = { base: string; assets: Map<string, StaticAsset> };
let bundle: Promise<Bundle> | undefined;

/**
 * GraphiQL's script, styles and Monaco workers from the npm package
 * `@graphql-yoga/render-graphiql` (the package yoga's own GraphiQL page inlines), served as
 * files of their own: the browser compiles the 9 MB script off its main thread while it
 * downloads, caches it across visits, and receives it compressed. Nothing comes from a CDN,
 * so GraphiQL works without internet access. Imported at the first visit, not at start-up.
 */
function graphiqlBundle(): Promise<Bundle> {
  bundle ??= import("@graphql-yoga/render-graphiql/graphiql").then((code) => {
    const hash = createHash("sha256").update(code.js).digest("hex").slice(0, 12);
    const file = (text: string, extension: ".js" | ".css"): StaticAsset => ({
      type: CONTENT_TYPES[extension] as string,
      raw: Buffer.from(text),
    });
    const assets = new Map<string, StaticAsset>([
      ["graphiql.js", file(code.js, ".js")],
      ["graphiql.css", file(code.css, ".css")],
      ["editor.worker.js", file(code.editorWorkerService, ".js")],
      ["json.worker.js", file(code.jsonWorker, ".js")],
      ["graphql.worker.js", file(code.graphqlWorker, ".js")],
    ]);
    return { base: `${GRAPHIQL_ASSETS}${hash}/`, assets };
  });
  return bundle;
}

/** Yoga's `renderGraphiQL`: the page that loads GraphiQL's files from this server. */
export async function renderOfflineGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { base } = await graphiqlBundle();
  const json = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? "GraphiQL")}</title>
<link rel="stylesheet" href="${base}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script>
const workers = {
  editorWorkerService: "${base}editor.worker.js",
  json: "${base}json.worker.js",
  graphql: "${base}graphql.worker.js",
};
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
</script>
<script src="${base}graphiql.js"></script>
<script>${startScript(json(options))}</script>
</body>
</html>`;
}

/**
 * Starts GraphiQL: with the UI session's CSRF token as its header when there is a session (the
 * cookie goes along: same origin). The schema (for the docs and completion) is readable only
 * with a credential: when it could not be read and a query then succeeds, GraphiQL re-fetches
 * it (its own button), with the headers that just worked.
 */
function startScript(optionsJson: string): string {
  return `
const options = ${optionsJson};
const csrf = document.cookie.match(/(?:^|;\\s*)vexil-csrf=([^;]*)/);
if (csrf) options.headers = JSON.stringify({ "x-csrf-token": decodeURIComponent(csrf[1]) }, null, 2);
let schemaRead = false;
const send = window.fetch.bind(window);
window.fetch = async (input, init) => {
  const response = await send(input, init);
  const body = typeof init?.body === "string" ? init.body : "";
  if (schemaRead || !body) return response;
  const answer = await response.clone().json().catch(() => null);
  if (body.includes("__schema")) {
    schemaRead = Boolean(answer?.data?.__schema);
  } else if (answer?.data && !answer.errors) {
    // GraphiQL's own re-fetch, which sends the headers that just worked.
    setTimeout(() => document.querySelector('[aria-label^="Re-fetch GraphQL schema"]')?.click());
  }
  return response;
};
YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), options);
`;
}

/** GraphiQL's files (see `graphiqlBundle`): an unknown one is a 404. */
export const graphiqlRoutes: HandlerRoute[] = [
  {
    method: "GET",
    path: `${GRAPHIQL_ASSETS}:hash/:file`,
    surface: { name: "graphiql", prefixes: ["/graphiql"], decodesPath: false, answersHead: true },
    access: PUBLIC,
    doc: {
      operationId: "getGraphiqlFile",
      summary: "A file of GraphiQL (the page at /graphql)",
      description:
        "Script, styles and editor workers, named by a hash of their package's code (cached for a year).",
      tags: ["Web files"],
      responses: { "200": { description: "The file." }, "404": { description: "No such file." } },
    },
    handle: async ({ request, url }) => {
      const { base, assets } = await graphiqlBundle();
      const asset = url.pathname.startsWith(base) ? assets.get(url.pathname.slice(base.length)) : undefined;
      if (!asset) noSuchPath(request, url);
      return assetResponse(asset, request, IMMUTABLE);
    },
  },
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
