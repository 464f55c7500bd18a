import type { Plugin } from "graphql-yoga";
import type { AppScope, Context } from "../../context.ts";

/**
 * Subscriptions (graphql-ws and SSE) end when their credential stops standing for the caller
 * with the permissions it had: a deleted or demoted user, a changed role or membership, a
 * deleted or changed token, a logout or a new password, an expiry. Each open subscription's
 * principal is resolved again after every access event (any node's, through the live feed),
 * every access notice (logout, sessions ended: `bus.publishAccessChange`, any node) and at its
 * credential's expiry, so within moments (the app's watch: revocation.live.ts). The subscriber
 * gets a normal end (graphql-ws `complete`, the SSE stream closes); subscribing again gets the
 * credential's new permissions, or is refused.
 */
export function useCredentialRevocation(
  scope: Pick<AppScope, "now" | "services">,
): Plugin<Record<string, unknown>, Context> {
  return {
    onSubscribe({ args }) {
      const context = args.contextValue as unknown as Context;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result) || !context.principal) return;
          const expiry = { now: scope.now, at: context.principal.expiresAt };
          setResult(scope.services.revocation.watch(result, context.credentialStillValid, expiry));
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}
