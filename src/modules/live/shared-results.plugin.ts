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
  const executions = new SharedExecutions();

  const sharedResult = (execution: SharedExecution, event: unknown) => {
    if (typeof event !== "object" || event === null) return execute({ ...execution.args, rootValue: event });
    let byKey = resultsByEvent.get(event);
    if (!byKey) {
      byKey = new Map();
      resultsByEvent.set(event, byKey);
    }
    let result = byKey.get(execution.key);
    if (result === undefined) {
      result = execute({ ...execution.args, rootValue: event });
      byKey.set(execution.key, result);
    }
    return result;
  };

  /**
   * The JSON of a shared result, serialised once for all who share it. Only a plain result goes
   * this way: one still being computed, or with errors (which yoga masks), takes the ordinary path.
   */
  const jsonOf = (result: MaybePromise<ExecutionResult>) => {
    if (result instanceof Promise || result.errors) return undefined;
    let json = jsonByResult.get(result);
    if (json === undefined) {
      json = JSON.stringify(result);
      jsonByResult.set(result, json);
    }
    return json;
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
        const execution = executions.for(key, subscribeArgs);
        // From here on the subscription needs its context no more (src/http-server.ts lets it go).
        context.sharesResults = true;
        return new SharedStream(
          source,
          shared.operation,
          execution,
          sharedResult,
          jsonOf,
          context.directNext,
        );
      });
    },
  };
}

/** What subscribers with the same key execute an event with: the first one's arguments. */
type SharedExecution = { key: string; args: ExecutionArgs };

/**
 * One SharedExecution per key, as long as some subscriber holds it (a subscriber keeps only
 * this, not its own context): a map of weak references, each entry removed once collected.
 */
class SharedExecutions {
  private readonly byKey = new Map<string, WeakRef<SharedExecution>>();
  private readonly collected = new FinalizationRegistry<string>((key) => {
    if (this.byKey.get(key)?.deref() === undefined) this.byKey.delete(key);
  });

  for(key: string, args: ExecutionArgs): SharedExecution {
    const known = this.byKey.get(key)?.deref();
    if (known) return known;
    const execution: SharedExecution = {
      key,
      args: {
        schema: args.schema,
        document: args.document,
        operationName: args.operationName,
        variableValues: args.variableValues,
        contextValue: executionContext(args.contextValue as Context),
      },
    };
    this.byKey.set(key, new WeakRef(execution));
    this.collected.register(execution, key);
    return execution;
  }
}

/** What ties a context to its subscriber's connection. */
const CONNECTION_FIELDS = new Set(["request", "req", "res", "extra", "directNext", "sharesResults"]);

/**
 * A copy of the subscriber's context (its own values and those it inherits) without what ties
 * it to the subscriber's connection (its request, its socket's sender): the context its key's
 * events are executed with, which may outlive that subscriber. Symbol keys (Pothos's request
 * caches) are not copied: the copy has caches of its own.
 */
function executionContext(context: Context): Context {
  const copy: Record<string, unknown> = {};
  for (const name in context) {
    if (!CONNECTION_FIELDS.has(name)) copy[name] = context[name as keyof Context];
  }
  return copy as Context;
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
 * The source stream mapped to execution results. Hand-written, and a class (a subscriber waits
 * in next() for most of its life: no closures per subscriber), so that `return()` reaches the
 * source at once (a disconnect detaches the subscriber immediately), and a failure of the
 * source is reported as graphql-tools does (located at the operation, original error kept).
 * With a direct sender (`send`), a source that supports it delivers what it can directly while
 * graphql-ws waits on next(); next() then returns only what that declined, the end, or a failure.
 */
class SharedStream implements AsyncIterableIterator<ExecutionResult> {
  private readonly source: AsyncIterator<unknown>;
  private readonly push: Push | undefined;

  constructor(
    events: AsyncIterable<unknown>,
    private readonly operation: OperationDefinitionNode,
    private readonly execution: SharedExecution,
    private readonly resultOf: (execution: SharedExecution, event: unknown) => MaybePromise<ExecutionResult>,
    jsonOf: (result: MaybePromise<ExecutionResult>) => string | undefined,
    send: DirectNext | undefined,
  ) {
    this.source = events[Symbol.asyncIterator]();
    if (send && "nextPushing" in this.source) {
      this.push = (event) => {
        const json = jsonOf(this.resultOf(this.execution, event));
        return json !== undefined && send(json);
      };
    }
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  // Not async: a subscriber waits in next() for most of its life (see LiveStream.nextLive).
  next(): Promise<IteratorResult<ExecutionResult>> {
    const step = this.push ? (this.source as PushingSource).nextPushing(this.push) : this.source.next();
    return step.then(
      (item): MaybePromise<IteratorResult<ExecutionResult>> =>
        item.done
          ? { value: undefined, done: true }
          : Promise.resolve(this.resultOf(this.execution, item.value)).then((value) => ({
              value,
              done: false,
            })),
      (error) => {
        const original = error instanceof Error ? error : new Error(String(error));
        throw new GraphQLError(original.message, { originalError: original, nodes: [this.operation] });
      },
    );
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    await this.source.return?.();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    await this.source.return?.();
    throw error;
  }
}
