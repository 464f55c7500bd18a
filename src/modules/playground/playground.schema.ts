import { randomInt } from "node:crypto";
import { builder } from "../../builder.ts";
import { ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import { followEvents, withCurrentFirst } from "../live/follow.live.ts";
import { FlagEvaluationRef } from "./flag-evaluation.schema.ts";
import { contextSchema } from "./playground.inputs.ts";
import { changedEvaluations } from "./playground.live.ts";
import {
  type ContextValues,
  contextCombinations,
  evaluatePlayground,
  MAX_COMBINATIONS,
  type PlaygroundFlag,
} from "./playground.logic.ts";
import { playgroundState } from "./playground-state.read.ts";

export const EvaluationContextInput = builder.inputType("EvaluationContextInput", {
  description:
    "The context an SDK would evaluate with. Any other field goes in `properties` (values are strings, " +
    "numbers or booleans).",
  fields: (t) => ({
    userId: t.string({ description: "The user's id." }),
    sessionId: t.string({ description: "The session's id." }),
    remoteAddress: t.string({ description: "The client's IP address." }),
    appName: t.string({ description: "The application's name." }),
    environment: t.string({
      description: "The environment the application reports (a context field, not the one evaluated).",
    }),
    currentTime: t.field({
      type: "DateTime",
      description: "The time date constraints compare with (default: now).",
    }),
    properties: t.field({
      type: "JSON",
      description: "Custom context fields: an object of names to values.",
    }),
  }),
});

/** The GraphQL input as the engine's context (absent fields left out, as SDKs leave them). */
export function toEvaluationContext(input: unknown): EvaluationContext {
  const parsed = parseInput(contextSchema, input);
  const context: EvaluationContext = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== null && value !== undefined) context[key] = value;
  }
  return context;
}

type ContextEvaluation = {
  environment: string;
  contextIndex: number;
  context: ContextValues;
  flags: PlaygroundFlag[];
};
const ContextEvaluationRef = builder.objectRef<ContextEvaluation>("ContextEvaluation").implement({
  description: "The flags evaluated for one of the given contexts in one environment.",
  fields: (t) => ({
    environment: t.exposeString("environment", { description: "Environment evaluated in." }),
    contextIndex: t.exposeInt("contextIndex", {
      description: "Position of the context in `contexts` (with `combineLists`: of the combination).",
    }),
    context: t.field({
      type: "JSON",
      description:
        "The context evaluated, as given (with `combineLists`: this combination's values); `currentTime` " +
        "as an ISO 8601 string.",
      resolve: (row) => jsonContext(row.context),
    }),
    flags: t.expose("flags", {
      type: [FlagEvaluationRef],
      description: "The flags, evaluated.",
    }),
  }),
});

/** Environments x contexts evaluated by one `evaluateMany` (each is a pass over every flag). */
export const MAX_EVALUATIONS = 100;

function combinationsOf(context: ContextValues): ContextValues[] {
  const combinations = contextCombinations(context);
  if (!combinations) {
    throw new ValidationError(`The context's lists make more than ${MAX_COMBINATIONS} combinations`);
  }
  return combinations;
}

/** A context input as JSON: no absent fields, the date as ISO 8601. */
function jsonContext({ currentTime, ...context }: ContextValues): Record<string, unknown> {
  const present = Object.entries(context).filter(([, value]) => value !== null && value !== undefined);
  const time = currentTime instanceof Date ? { currentTime: currentTime.toISOString() } : {};
  return { ...Object.fromEntries(present), ...time };
}

/** What `evaluate` and `evaluatedFlags` evaluate: one environment, one context. */
const evaluationArgs = builder.args((t) => ({
  environment: t.string({ required: true, description: "Environment to evaluate in." }),
  context: t.field({ type: EvaluationContextInput, required: true, description: "The context." }),
  flags: t.stringList({ description: "Only these flags, in this order (unknown ones: UNKNOWN_FLAG)." }),
  projects: t.stringList({ description: "Only flags of these projects." }),
}));

builder.queryField("evaluate", (t) =>
  t.field({
    type: [FlagEvaluationRef],
    description:
      "The playground: the flags of an environment evaluated for one context as an SDK would, each with why " +
      "(which strategy, which constraint or segment failed or matched, which variant rule). Reads the " +
      "configuration the SDKs are served. Projects default to every project the credential may read.",
    authScopes: { authenticated: true },
    args: evaluationArgs,
    resolve: async (_root, args, ctx) => {
      const compiled = await playgroundState(ctx, args.environment, args.projects);
      return evaluatePlayground(compiled, toEvaluationContext(args.context), args.flags);
    },
  }),
);

builder.queryField("evaluateMany", (t) =>
  t.field({
    type: [ContextEvaluationRef],
    description: `\`evaluate\` for every environment and context given (at most ${MAX_EVALUATIONS} pairs).`,
    authScopes: { authenticated: true },
    args: {
      environments: t.arg.stringList({ required: true, description: "Environments to evaluate in." }),
      contexts: t.arg({ type: [EvaluationContextInput], required: true, description: "The contexts." }),
      flags: t.arg.stringList({ description: "Only these flags." }),
      projects: t.arg.stringList({ description: "Only flags of these projects." }),
      combineLists: t.arg.boolean({
        defaultValue: false,
        description:
          "Unleash's advanced playground: a string value holding commas is a list (items trimmed, empty ones " +
          `dropped), and every combination of a context's lists is evaluated (at most ${MAX_COMBINATIONS}).`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const given = args.contexts as ContextValues[];
      const inputs = args.combineLists ? given.flatMap(combinationsOf) : given;
      const pairs = args.environments.length * inputs.length;
      if (pairs > MAX_EVALUATIONS) {
        throw new ValidationError(`At most ${MAX_EVALUATIONS} environment and context pairs (got ${pairs}).`);
      }
      const contexts = inputs.map(toEvaluationContext);
      const rows: ContextEvaluation[] = [];
      for (const environment of args.environments) {
        const compiled = await playgroundState(ctx, environment, args.projects);
        for (const [contextIndex, context] of contexts.entries()) {
          const flags = evaluatePlayground(compiled, context, args.flags);
          rows.push({ environment, contextIndex, context: inputs[contextIndex] ?? {}, flags });
        }
      }
      return rows;
    },
  }),
);

builder.subscriptionField("evaluatedFlags", (t) =>
  t.field({
    type: [FlagEvaluationRef],
    description:
      "A frontend's flags kept current: `evaluate` for the context now, then again after each committed change " +
      "that alters a flag's result, variant or impression setting for it (one message per such change, none " +
      "for others). Random stickiness is drawn once per subscription, so answers stay stable between changes.",
    authScopes: { authenticated: true },
    args: evaluationArgs,
    subscribe: async (_root, args, ctx) => {
      const context = toEvaluationContext(args.context);
      await playgroundState(ctx, args.environment, args.projects); // refuses an unknown environment now
      const draw = String(randomInt(1, 10_001));
      const evaluate = async () =>
        evaluatePlayground(await playgroundState(ctx, args.environment, args.projects), context, args.flags, {
          random: () => draw,
        });
      // Events are only wake-ups here (none is delivered): any change may alter an answer.
      const changes = followEvents(ctx.db, ctx.services.feed, { where: {}, accept: () => true });
      return changedEvaluations(withCurrentFirst(changes), evaluate);
    },
    resolve: (flags) => flags,
  }),
);
