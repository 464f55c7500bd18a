import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type FieldNode,
  GraphQLError,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  print,
  visit,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../context.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Push } from "./follow.live.ts";

/**
 * Name of the field extension that makes a subscription field's results shareable. Its value
 * says who may share: subscribers whose contexts give the same audience and who select the
 * same fields (same selection set, same values of the variables used in it) get the very same
 * execution result for the same event object. Only for fields whose result depends on nothing
 * else: not on the field's own arguments (they choose which events come, not what is sent),
 * the context, the database or the clock. The result is computed once, with the first
 * subscriber's context.
 */
const SHARED_RESULTS = "vexilSharedResults";

type AudienceOf = (context: Context) => string;

/**
 * Set in the context by a transport that can send a subscriber one `next` message whose
 * payload is already JSON (src/http-server.ts, graphql-ws over WebSocket). Returns false when
 * it cannot now (socket closed, or too much still unsent): the result then takes the ordinary
 * path, whose backpressure ends a subscriber that stays behind.
 */
export type DirectNext = (payloadJson: string) => boolean;
type MaybePromise<T> = T | Promise<T>;

/** Field `extensions` that let subscribers with the same `audienceOf(ctx)` share results. */
export function shareResultsAmong(audienceOf: AudienceOf) {
  return { [SHARED_RESULTS]: audienceOf };
}

/**
 * Executes the selection set of a shareable subscription once per event for all subscribers
 * that can share it, instead of once per subscriber. Everything per subscriber stays per
 * subscriber: the field's `subscribe` (authorization, filter, replay, buffer) still runs for
 * each, so each gets exactly the events it got before; only the execution of an event it
 * receives is looked up. Results are memoised on the event object, so they live as long as
 * some subscriber still holds that event and need no eviction. Anything unusual (a variable
 * that does not coerce, directives on the root field) takes yoga's ordinary path.
 */
export function useSharedSubscriptionResults(): Plugin<Record<string, unknown>, Context> {
  const resultsByEvent = new WeakMap<object, Map<string, MaybePromise<ExecutionResult>>>();
  const jsonByResult = new WeakMap<ExecutionResult, string>();

  const sharedResult = (args: ExecutionArgs, key: string, event: unknown) => {
    if (typeof event !== "object" || event === null) return execute({ ...args, rootValue: event });
    let byKey = resultsByEvent.get(event);
    if (!byKey) {
      byKey = new Map();
      resultsByEvent.set(event, byKey);
    }
    let result = byKey.get(key);
    if (result === undefined) {
      result = execute({ ...args, rootValue: event });
      byKey.set(key, result);
    }
    return result;
  };

  /**
   * Sends a shared result as its JSON, serialised once for all who share it. Only a plain
   * result goes this way: one still being computed, or with errors (which yoga masks), takes
   * the ordinary path.
   */
  const pushVia =
    (send: DirectNext, resultOf: (event: unknown) => MaybePromise<ExecutionResult>): Push =>
    (event: StoredEvent) => {
      const result = resultOf(event);
      if (result instanceof Promise || result.errors) return false;
      let json = jsonByResult.get(result);
      if (json === undefined) {
        json = JSON.stringify(result);
        jsonByResult.set(result, json);
      }
      return send(json);
    };

  return {
    onSubscribe({ args, setSubscribeFn }) {
      const shared = shareableOperation(args);
      if (!shared) return;
      setSubscribeFn(async (subscribeArgs: ExecutionArgs) => {
        const source = await createSourceEventStream(subscribeArgs);
        if (!(Symbol.asyncIterator in source)) return source;
        const context = subscribeArgs.contextValue as Context;
        const key = `${shared.selection}\u0000${shared.audienceOf(context)}`;
        const resultOf = (event: unknown) => sharedResult(subscribeArgs, key, event);
        const push = context.directNext ? pushVia(context.directNext, resultOf) : undefined;
        return mapEvents(source, shared.operation, resultOf, push);
      });
    },
  };
}

type Shareable = { operation: OperationDefinitionNode; selection: string; audienceOf: AudienceOf };

/** The operation, what it selects and the field's audience, when it can take the shared path. */
function shareableOperation(args: ExecutionArgs): Shareable | null {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== "subscription") return null;
  const [root, ...others] = operation.selectionSet.selections;
  if (!root || others.length > 0 || root.kind !== Kind.FIELD || root.directives?.length) return null;
  const field = args.schema.getSubscriptionType()?.getFields()[root.name.value];
  const audienceOf = field?.extensions?.[SHARED_RESULTS] as AudienceOf | undefined;
  if (!audienceOf) return null;
  // Variables that do not coerce get yoga's own error (code, HTTP status) on its own path.
  const { coerced, errors } = getVariableValues(
    args.schema,
    operation.variableDefinitions ?? [],
    args.variableValues ?? {},
  );
  if (errors) return null;
  return { operation, selection: selectionOf(root, args.document, coerced), audienceOf };
}

/**
 * What a subscriber is sent for an event, as text: the root field's response name, its
 * selection set, the document's fragments, and the (coerced, so defaults count) values of the
 * variables used in them. The root field's arguments are left out: they pick the events.
 */
function selectionOf(root: FieldNode, document: DocumentNode, variables: Record<string, unknown>): string {
  const fragments = document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const parts = [root.selectionSet, ...fragments].filter((node) => node !== undefined);
  const used = new Set<string>();
  for (const node of parts) {
    visit(node, {
      Variable: (variable) => {
        used.add(variable.name.value);
      },
    });
  }
  const values = [...used].sort().map((name) => [name, variables[name]]);
  return JSON.stringify(
    [root.alias?.value ?? root.name.value, parts.map((node) => print(node)), values],
    (_key, value) => (typeof value === "bigint" ? `${value}n` : value),
  );
}
/** A source that can hand events to a direct sender while it waits (LiveStream). */
type PushingSource = AsyncIterator<unknown> & { nextPushing(push?: Push): Promise<IteratorResult<unknown>> };

/**
 * The source stream mapped to execution results. Hand-written so that `return()` reaches the
 * source at once (a disconnect detaches the subscriber immediately), and a failure of the
 * source is reported as graphql-tools does (located at the operation, original error kept).
 * With `push`, a source that supports it delivers what it can directly while graphql-ws
 * waits on next(); next() then returns only what push declined, the end, or a failure.
 */
function mapEvents(
  events: AsyncIterable<unknown>,
  operation: OperationDefinitionNode,
  resultOf: (event: unknown) => MaybePromise<ExecutionResult>,
  push?: Push,
): AsyncIterableIterator<ExecutionResult> {
  const source = events[Symbol.asyncIterator]();
  const pushing = push && "nextPushing" in source ? (source as PushingSource) : null;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    // Not async: a subscriber waits in next() for most of its life (see LiveStream.nextLive).
    next() {
      const step = pushing ? pushing.nextPushing(push) : source.next();
      return step.then(
        (item): MaybePromise<IteratorResult<ExecutionResult>> =>
          item.done
            ? { value: undefined, done: true }
            : Promise.resolve(resultOf(item.value)).then((value) => ({ value, done: false })),
        (error) => {
          const original = error instanceof Error ? error : new Error(String(error));
          throw new GraphQLError(original.message, { originalError: original, nodes: [operation] });
        },
      );
    },
    async return() {
      await source.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await source.return?.();
      throw error;
    },
  };
}
