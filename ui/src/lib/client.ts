import { cacheExchange, type Data } from "@urql/exchange-graphcache";
import type { GraphQLError } from "graphql";
import { createClient as createWsClient } from "graphql-ws";
import { Client, fetchExchange, mapExchange, subscriptionExchange } from "urql";
import { csrfToken } from "./csrf.ts";

/**
 * The UI's one GraphQL client: queries and mutations over HTTP with the session cookie and its
 * CSRF header, subscriptions over graphql-ws on the same path (the socket is authenticated by
 * the cookie plus the CSRF token in its connection parameters). The normalised cache
 * (graphcache) keys every entity by its Relay `id`, so a mutation's result updates every page
 * that shows the same object.
 */
/**
 * An UNAUTHENTICATED error means the session ended, unless it is about an input (a wrong
 * current password names `oldPassword` in its details).
 */
function endsSession(error: GraphQLError): boolean {
  if (error.extensions?.code !== "UNAUTHENTICATED") return false;
  const details = (error.extensions.details ?? []) as { path?: string }[];
  return !details.some((d) => d.path);
}

export function createClient(onUnauthenticated: () => void): Client {
  const ws = createWsClient({
    url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`,
    connectionParams: () => ({ csrfToken: csrfToken() }),
    lazy: true,
    retryAttempts: 1_000,
    shouldRetry: () => true,
  });
  return new Client({
    url: "/graphql",
    fetchOptions: () => ({
      credentials: "same-origin",
      headers: { "x-csrf-token": csrfToken() ?? "" },
    }),
    exchanges: [
      cacheExchange({ keys: { ...UNKEYED, ...KEYED_BY_NAME } }),
      mapExchange({
        onError(error) {
          if (error.graphQLErrors.some(endsSession)) onUnauthenticated();
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({
            unsubscribe: ws.subscribe({ ...request, query: request.query ?? "" }, sink),
          }),
        }),
      }),
    ],
  });
}

/** Types without an identity of their own: embedded in their parent in the cache. */
const UNKEYED = Object.fromEntries(
  [
    "PageInfo",
    "Viewer",
    "FeatureSearchItem",
    "FeatureSearchEnvironment",
    "UiConfig",
    "Grant",
    "Tag",
    "UserSummary",
    "FeatureLifecycle",
    "PersonalDashboard",
    "Constraint",
    "StrategyVariant",
    "EnvironmentVariant",
    "VariantPayload",
    "VariantOverride",
    "FeatureDependencyLink",
    "ChangeRequestConfig",
    "FeatureType",
    "LegalValue",
    "ProjectMember",
    "RolePermission",
    "AddonParameterDefinition",
    "CreatedApiToken",
    "CreatedPersonalAccessToken",
    "ResetPasswordLink",
  ].map((type) => [type, () => null]),
);

/** Types identified by their unique name instead of a Relay id. */
const KEYED_BY_NAME = Object.fromEntries(
  ["ContextField", "TagType", "Permission", "AddonProvider"].map((type) => [
    type,
    (data: Data) => (typeof data.name === "string" ? data.name : null),
  ]),
);
