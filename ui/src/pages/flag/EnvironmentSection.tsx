import { useState } from "react";
import { Link } from "react-router";
import { useMutation } from "urql";
import { ProblemBanner } from "../../components/form.tsx";
import { problemOf } from "../../lib/errors.ts";
import { type ResultOf, readFragment } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";
import { type ChangeOutcome, useEnvironmentChange, useFlag } from "./context.ts";
import {
  DeleteStrategy,
  DisableEnvironment,
  EnableEnvironment,
  type EnvironmentFields,
  ReorderStrategies,
  StrategyFields,
  UpdateStrategy,
} from "./queries.ts";
import { StrategyEditor, type StrategyValue, strategySummary } from "./StrategyEditor.tsx";
import { VariantsEditor } from "./VariantsEditor.tsx";

export type FlagEnvironment = ResultOf<typeof EnvironmentFields>;
export type FlagStrategy = ResultOf<typeof StrategyFields>;

type Props = { environment: FlagEnvironment; needsReview: boolean };

/** One environment of the flag: on/off, its strategies in order, its variants. */
export function EnvironmentSection(props: Props) {
  const { environment, needsReview } = props;
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const strategies = environment.strategies
    .map((s) => readFragment(StrategyFields, s))
    .sort((a, b) => a.sortOrder - b.sortOrder);
  const headingId = `environment-${environment.name}`;

  return (
    <section className="environment card" aria-labelledby={headingId}>
      <div className="environment-head">
        <h3 id={headingId}>
          {environment.name} <span className="muted">({environment.type})</span>
        </h3>
        <EnabledSwitch environment={environment} needsReview={needsReview} onOutcome={setOutcome} />
      </div>
      {needsReview && <ReviewNotice environment={environment} />}
      <OutcomeNotice outcome={outcome} />
      <StrategyList
        environment={environment}
        strategies={strategies}
        needsReview={needsReview}
        onOutcome={setOutcome}
      />
      <VariantsEditor environment={environment} needsReview={needsReview} onOutcome={setOutcome} />
    </section>
  );
}

function EnabledSwitch(props: {
  environment: FlagEnvironment;
  needsReview: boolean;
  onOutcome(outcome: ChangeOutcome): void;
}) {
  const { environment } = props;
  const { project, name } = useFlag();
  const [enabling, enable] = useMutation(EnableEnvironment);
  const [disabling, disable] = useMutation(DisableEnvironment);
  const run = useEnvironmentChange(environment.name, props.needsReview);
  const variables = { project, name, environment: environment.name };
  const allowed = useSession().can("UPDATE_FEATURE_ENVIRONMENT", project, environment.name);

  async function toggle() {
    const enabled = !environment.enabled;
    props.onOutcome(
      await run(() => (enabled ? enable(variables) : disable(variables)), {
        action: "updateEnabled",
        payload: { enabled },
      }),
    );
  }
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={environment.enabled}
        checked={environment.enabled}
        disabled={!allowed || enabling.fetching || disabling.fetching}
        title={allowed ? undefined : `You may not turn the flag on or off in ${environment.name}.`}
        onChange={() => void toggle()}
      />{" "}
      Enabled in {environment.name}
    </label>
  );
}

/** Why changes here are proposals, and the change requests already open about this flag. */
function ReviewNotice(props: { environment: FlagEnvironment }) {
  const ids = props.environment.changeRequestIds;
  return (
    <div className="banner info" role="note">
      <p>Changes in {props.environment.name} need review: they are added to your draft change request.</p>
      {ids.length > 0 && (
        <p>
          Pending change requests:{" "}
          {ids.map((id) => (
            <Link key={id} to={`/change-requests/${id}`} className="cr-link">
              #{id}
            </Link>
          ))}
        </p>
      )}
    </div>
  );
}

export function OutcomeNotice(props: { outcome: ChangeOutcome | null }) {
  const { outcome } = props;
  if (!outcome) return null;
  if (outcome.error) return <ProblemBanner problem={problemOf(outcome.error)} showFieldErrors />;
  if (outcome.proposedId === null) return null;
  return (
    <p className="banner info" role="status">
      Proposed in change request{" "}
      <Link to={`/change-requests/${outcome.proposedId}`}>#{outcome.proposedId}</Link>.
    </p>
  );
}

type ListProps = {
  environment: FlagEnvironment;
  strategies: FlagStrategy[];
  needsReview: boolean;
  onOutcome(outcome: ChangeOutcome): void;
};

function StrategyList(props: ListProps) {
  const { environment, strategies } = props;
  const { project } = useFlag();
  const mayAdd = useSession().can("CREATE_FEATURE_STRATEGY", project, environment.name);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  /** The editor of `strategy` (null: a new one); `close` puts back what it replaced. */
  const editor = (strategy: FlagStrategy | null, close: () => void) => (
    <StrategyEditor
      environment={environment.name}
      needsReview={props.needsReview}
      strategy={strategy}
      onDone={(outcome) => {
        close();
        props.onOutcome(outcome);
      }}
      onCancel={close}
    />
  );
  return (
    <div className="strategies">
      <h4>Strategies</h4>
      {strategies.length === 0 && (
        <p className="muted">No strategies: when on, the flag is on for everyone.</p>
      )}
      <ol className="strategy-list" aria-label={`Strategies in ${environment.name}`}>
        {strategies.map((strategy, index) => (
          <li key={strategy.id} className={strategy.disabled ? "strategy disabled" : "strategy"}>
            {editing === strategy.databaseId ? (
              editor(strategy, () => setEditing(null))
            ) : (
              <StrategyRow
                {...props}
                strategy={strategy}
                index={index}
                onEdit={() => setEditing(strategy.databaseId)}
              />
            )}
          </li>
        ))}
      </ol>
      {adding
        ? editor(null, () => setAdding(false))
        : mayAdd && (
            <button type="button" onClick={() => setAdding(true)}>
              Add strategy in {environment.name}
            </button>
          )}
    </div>
  );
}

function StrategyRow(props: ListProps & { strategy: FlagStrategy; index: number; onEdit(): void }) {
  const { strategy, strategies, index, environment } = props;
  const { project, name } = useFlag();
  const [, update] = useMutation(UpdateStrategy);
  const [, remove] = useMutation(DeleteStrategy);
  const [, reorder] = useMutation(ReorderStrategies);
  const run = useEnvironmentChange(environment.name, props.needsReview);
  const target = { project, name, environment: environment.name };
  const label = strategy.title || strategy.name;
  const { can } = useSession();
  const mayUpdate = can("UPDATE_FEATURE_STRATEGY", project, environment.name);
  const mayDelete = can("DELETE_FEATURE_STRATEGY", project, environment.name);

  async function setDisabled(disabled: boolean) {
    props.onOutcome(
      await run(() => update({ ...target, id: strategy.databaseId, input: { disabled } }), {
        action: "updateStrategy",
        payload: { ...strategyPayload(strategy), disabled },
      }),
    );
  }
  async function deleteStrategy() {
    if (!window.confirm(`Delete strategy ${label} in ${environment.name}?`)) return;
    props.onOutcome(
      await run(() => remove({ ...target, id: strategy.databaseId }), {
        action: "deleteStrategy",
        payload: { id: strategy.databaseId },
      }),
    );
  }
  async function move(by: -1 | 1) {
    const ids = strategies.map((s) => s.databaseId);
    [ids[index], ids[index + by]] = [ids[index + by] as string, ids[index] as string];
    const order = ids.map((id, sortOrder) => ({ id, sortOrder }));
    props.onOutcome(
      await run(() => reorder({ ...target, order }), { action: "reorderStrategy", payload: order }),
    );
  }

  return (
    <div className="strategy-row">
      <div className="strategy-summary">
        <strong>{label}</strong>
        {strategy.title && <span className="muted"> ({strategy.name})</span>}
        {strategy.disabled && <span className="badge off">disabled</span>}
        <p className="muted">{strategySummary(strategy)}</p>
      </div>
      <div className="strategy-actions">
        {mayUpdate && (
          <>
            <button
              type="button"
              className="secondary"
              aria-label={`Move ${label} up`}
              disabled={index === 0}
              onClick={() => void move(-1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="secondary"
              aria-label={`Move ${label} down`}
              disabled={index === strategies.length - 1}
              onClick={() => void move(1)}
            >
              ↓
            </button>
            <button type="button" className="secondary" onClick={props.onEdit} aria-label={`Edit ${label}`}>
              Edit
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => void setDisabled(!strategy.disabled)}
              aria-label={`${strategy.disabled ? "Enable" : "Disable"} ${label}`}
            >
              {strategy.disabled ? "Enable" : "Disable"}
            </button>
          </>
        )}
        {mayDelete && (
          <button
            type="button"
            className="danger"
            onClick={() => void deleteStrategy()}
            aria-label={`Delete ${label}`}
          >
            Delete
          </button>
        )}
      </div>
    </div>
  );
}

/** A stored strategy as the whole payload of an updateStrategy change. */
export function strategyPayload(strategy: FlagStrategy): StrategyValue & { id: string } {
  return {
    id: strategy.databaseId,
    name: strategy.name,
    title: strategy.title ?? null,
    disabled: strategy.disabled,
    parameters: (strategy.parameters ?? {}) as Record<string, string>,
    constraints: strategy.constraints.map((c) => ({ ...c, value: c.value ?? null })),
    segments: strategy.segments,
    variants: strategy.variants.map((v) => ({
      ...v,
      weightType: v.weightType === "fix" ? "fix" : "variable",
      payload: v.payload ? { type: v.payload.type as PayloadType, value: v.payload.value } : null,
    })),
  };
}

export type PayloadType = "json" | "csv" | "string" | "number";
