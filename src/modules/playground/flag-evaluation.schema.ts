import { builder } from "../../builder.ts";
import type { EvaluatedVariant } from "../evaluation/engine.logic.ts";
import { EnvironmentVariantRef } from "../feature-environments/feature-environment.schema.ts";
import { PayloadRef } from "../feature-environments/strategy.schema.ts";
import type { EnvironmentVariant } from "../feature-environments/strategy.types.ts";
import { matchedStrategy, type PlaygroundFlag, strategiesOutcome } from "./playground.logic.ts";
import { StrategyEvaluationRef } from "./strategy-evaluation.schema.ts";

// A flag as the playground evaluates it for one context: the answer and why.

const ReasonEnum = builder.enumType("EvaluationReason", {
  description: "Why a flag evaluated as it did.",
  values: {
    UNKNOWN_FLAG: { value: "unknown-flag", description: "No such flag in the evaluated projects." },
    DEPENDENCY_NOT_SATISFIED: {
      value: "dependency-not-satisfied",
      description: "A parent flag is not in the required state (see `unsatisfiedDependency`).",
    },
    FLAG_DISABLED: { value: "flag-disabled", description: "The flag is off in this environment." },
    NO_STRATEGIES: { value: "no-strategies", description: "On, with no strategy: on for everyone." },
    STRATEGY_MATCHED: {
      value: "strategy-matched",
      description: "A strategy matched (see `matchedStrategy`).",
    },
    NO_STRATEGY_MATCHED: {
      value: "no-strategy-matched",
      description: "On, but no strategy matched the context (see `strategies`).",
    },
  } as const,
});

const VariantSourceEnum = builder.enumType("VariantSource", {
  description: "Where the chosen variant came from.",
  values: {
    STRATEGY: { value: "strategy", description: "The matched strategy's variants." },
    FLAG: { value: "flag", description: "The flag's variants in the environment." },
  } as const,
});

const StrategiesOutcomeEnum = builder.enumType("StrategiesOutcome", {
  description: "What a flag's strategies answer together.",
  values: {
    ON: { value: "on", description: "A strategy was evaluated and is on for the context." },
    OFF: { value: "off", description: "None is on, and every strategy could be evaluated." },
    UNKNOWN: { value: "unknown", description: "None evaluated on, but an INCOMPLETE one might be." },
  } as const,
});

const EvaluatedVariantRef = builder.objectRef<EvaluatedVariant>("EvaluatedVariant").implement({
  description: "The variant a context gets; `disabled` (enabled false) when the flag is off or has none.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Variant name, or `disabled`." }),
    enabled: t.exposeBoolean("enabled", { description: "Whether a real variant was chosen." }),
    featureEnabled: t.exposeBoolean("feature_enabled", {
      description: "Whether the flag is on for the context.",
    }),
    payload: t.field({
      type: PayloadRef,
      nullable: true,
      description: "The variant's payload.",
      resolve: (v) => v.payload ?? null,
    }),
  }),
});

const DependencyRequirementRef = builder
  .objectRef<{ parent: string; enabled: boolean; variants?: string[] }>("DependencyRequirement")
  .implement({
    description: "A parent flag's required state that the context did not meet.",
    fields: (t) => ({
      parent: t.exposeString("parent", { description: "Parent flag." }),
      enabled: t.exposeBoolean("enabled", { description: "Whether the parent must be on (false: off)." }),
      variants: t.stringList({
        description: "Parent variants of which one is required (empty: any).",
        resolve: (d) => d.variants ?? [],
      }),
    }),
  });

type VariantRule = NonNullable<PlaygroundFlag["variantRule"]>;
const VariantRuleRef = builder.objectRef<VariantRule>("VariantRule").implement({
  description: "How the variant was chosen.",
  fields: (t) => ({
    source: t.expose("source", {
      type: VariantSourceEnum,
      description: "Strategy or flag variants.",
    }),
    override: t.boolean({
      description: "An override matched the context.",
      resolve: (r) => r.kind === "override",
    }),
    contextName: t.string({
      nullable: true,
      description: "The overriding context field.",
      resolve: (r) => (r.kind === "override" ? r.contextName : null),
    }),
    contextValue: t.string({
      nullable: true,
      description: "The overriding context value.",
      resolve: (r) => (r.kind === "override" ? r.contextValue : null),
    }),
    stickiness: t.string({
      nullable: true,
      description: "The field the weight bucket was computed from.",
      resolve: (r) => (r.kind === "weight" ? r.stickiness : null),
    }),
    bucket: t.int({
      nullable: true,
      description: "The context's bucket among the weights.",
      resolve: (r) => (r.kind === "weight" ? r.bucket : null),
    }),
    totalWeight: t.int({
      nullable: true,
      description: "The sum of the variants' weights.",
      resolve: (r) => (r.kind === "weight" ? r.totalWeight : null),
    }),
  }),
});

export const FlagEvaluationRef = builder.objectRef<PlaygroundFlag>("FlagEvaluation").implement({
  description: "A flag evaluated for one context in one environment, and why.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    project: t.exposeString("project", {
      nullable: true,
      description: "Its project; null for an unknown flag.",
    }),
    enabled: t.exposeBoolean("enabled", { description: "Whether the flag is on for the context." }),
    variant: t.expose("variant", {
      type: EvaluatedVariantRef,
      description: "The variant the context gets.",
    }),
    impressionData: t.exposeBoolean("impressionData", {
      description: "Whether SDKs emit impression events.",
    }),
    onInEnvironment: t.exposeBoolean("onInEnvironment", {
      description: "The flag's own toggle in the environment, whatever the context.",
    }),
    reason: t.field({ type: ReasonEnum, description: "Why.", resolve: (f) => f.reason.kind }),
    unsatisfiedDependency: t.field({
      type: DependencyRequirementRef,
      nullable: true,
      description: "With DEPENDENCY_NOT_SATISFIED: the parent and the state it must be in.",
      resolve: (f) =>
        f.reason.kind === "dependency-not-satisfied"
          ? { parent: f.reason.parent, ...f.reason.required }
          : null,
    }),
    matchedStrategy: t.field({
      type: StrategyEvaluationRef,
      nullable: true,
      description: "With STRATEGY_MATCHED: the first strategy that is on for the context.",
      resolve: (f) => matchedStrategy(f),
    }),
    strategies: t.expose("strategies", {
      type: [StrategyEvaluationRef],
      description:
        "Every strategy explained, in order (for a flag that is off: what each would say were it on).",
    }),
    strategiesOutcome: t.field({
      type: StrategiesOutcomeEnum,
      description:
        "What its strategies answer together, whether or not the flag is on (Unleash's playground " +
        "`strategies.result`).",
      resolve: (f) => strategiesOutcome(f.strategies),
    }),
    variantRule: t.expose("variantRule", {
      type: VariantRuleRef,
      nullable: true,
      description: "How the variant was chosen, when one was.",
    }),
    variants: t.field({
      type: [EnvironmentVariantRef],
      description: "The flag's variants in the environment.",
      resolve: (f) => f.variants as EnvironmentVariant[],
    }),
  }),
});
