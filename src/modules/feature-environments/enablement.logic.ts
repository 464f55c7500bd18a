/** What a caller asks: the flag on or off, and (on) whether disabled strategies come back on. */
export type EnablementWanted = { enabled: boolean; shouldActivateDisabledStrategies?: boolean };

/** A flag's state in one environment, as the rule below needs it. */
export type EnablementState = { enabled: boolean; enabledStrategies: number; disabledStrategies: number };

/** What turning the flag on or off takes, in this order. */
export type EnablementSteps = {
  /** Re-enable the disabled strategies (feature-strategy-update each). */
  reactivateDisabled: boolean;
  /** Add the project's default strategy (feature-strategy-add): none would apply otherwise. */
  addDefaultStrategy: boolean;
  /** Switch the environment (feature-environment-enabled / -disabled). */
  switchState: boolean;
};

/**
 * The one rule of turning a flag on or off in an environment (spec 3.4, reference-behaviours
 * §4): on, a strategy must apply — the disabled ones re-enabled when asked and there are any,
 * else the default strategy added when no enabled one exists; the event only when the state flips.
 */
export function enablementSteps(state: EnablementState, wanted: EnablementWanted): EnablementSteps {
  const switchState = state.enabled !== wanted.enabled;
  if (!wanted.enabled) return { reactivateDisabled: false, addDefaultStrategy: false, switchState };
  const reactivateDisabled = Boolean(wanted.shouldActivateDisabledStrategies) && state.disabledStrategies > 0;
  const addDefaultStrategy = !reactivateDisabled && state.enabledStrategies === 0;
  return { reactivateDisabled, addDefaultStrategy, switchState };
}

export function changesNothing(steps: EnablementSteps): boolean {
  return !steps.reactivateDisabled && !steps.addDefaultStrategy && !steps.switchState;
}
