import { useId, useState } from "react";
import { CONSTRAINT_OPERATORS } from "../../../src/modules/feature-environments/strategy.types.ts";

/**
 * The API's list, in the order of its ConstraintOperator enum: strategy.types.ts holds only
 * plain values, so importing it brings no server code into the bundle.
 */
export { CONSTRAINT_OPERATORS };

export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

/** A constraint as the API's ConstraintInput takes it. */
export type ConstraintValue = {
  contextName: string;
  operator: ConstraintOperator;
  values?: string[] | null;
  value?: string | null;
  inverted?: boolean | null;
  caseInsensitive?: boolean | null;
};

export type ContextFieldChoice = {
  name: string;
  legalValues: readonly { value: string; description?: string | null }[];
};

/** Operators comparing against a list (`values`); every other one takes one `value`. */
export function isMultiValue(operator: ConstraintOperator): boolean {
  return operator === "IN" || operator === "NOT_IN";
}

const STRING_OPERATORS = new Set<ConstraintOperator>([
  "IN",
  "NOT_IN",
  "STR_CONTAINS",
  "STR_STARTS_WITH",
  "STR_ENDS_WITH",
]);

/**
 * Edits a list of constraints (controlled): context field, operator, value(s), inverted and
 * case-insensitive for each. Used wherever constraints are configured (segments, strategies).
 * Keeps only the fields the operator uses, so `value` can be sent as the API's input as is.
 */
export function ConstraintsEditor(props: {
  value: ConstraintValue[];
  onChange(value: ConstraintValue[]): void;
  contextFields: readonly ContextFieldChoice[];
  /** Messages of the API for the constraints, shown under the list. */
  message?: string | undefined;
}) {
  const replace = (index: number, next: ConstraintValue) =>
    props.onChange(props.value.map((c, i) => (i === index ? next : c)));
  const remove = (index: number) => props.onChange(props.value.filter((_, i) => i !== index));
  const add = () =>
    props.onChange([
      ...props.value,
      {
        contextName: props.contextFields[0]?.name ?? "userId",
        operator: "IN",
        values: [],
        inverted: false,
        caseInsensitive: false,
      },
    ]);
  return (
    <div className="constraints">
      {props.value.length === 0 && <p className="hint">No constraints: everyone matches.</p>}
      {props.value.map((constraint, index) => (
        <ConstraintRow
          // Rows have no identity of their own; removing one re-renders the rest from props.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          index={index}
          constraint={constraint}
          contextFields={props.contextFields}
          onChange={(next) => replace(index, next)}
          onRemove={() => remove(index)}
        />
      ))}
      {props.message && (
        <p className="field-error" role="alert">
          {props.message}
        </p>
      )}
      <button type="button" className="secondary" onClick={add}>
        Add constraint
      </button>
    </div>
  );
}

function ConstraintRow(props: {
  index: number;
  constraint: ConstraintValue;
  contextFields: readonly ContextFieldChoice[];
  onChange(next: ConstraintValue): void;
  onRemove(): void;
}) {
  const id = useId();
  const { constraint } = props;
  const field = props.contextFields.find((f) => f.name === constraint.contextName);
  const names = props.contextFields.map((f) => f.name);
  if (!names.includes(constraint.contextName)) names.unshift(constraint.contextName);

  function setOperator(operator: ConstraintOperator) {
    const multi = isMultiValue(operator);
    const current = isMultiValue(constraint.operator) ? (constraint.values ?? []) : [constraint.value ?? ""];
    props.onChange({
      ...constraint,
      operator,
      values: multi ? current.filter(Boolean) : undefined,
      value: multi ? undefined : (current[0] ?? ""),
      caseInsensitive: STRING_OPERATORS.has(operator) ? constraint.caseInsensitive : false,
    });
  }

  return (
    <fieldset className="constraint">
      <legend>Constraint {props.index + 1}</legend>
      <div className="field">
        <label htmlFor={`${id}-context`}>Context field</label>
        <select
          id={`${id}-context`}
          value={constraint.contextName}
          onChange={(e) => props.onChange({ ...constraint, contextName: e.target.value })}
        >
          {names.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-operator`}>Operator</label>
        <select
          id={`${id}-operator`}
          value={constraint.operator}
          onChange={(e) => setOperator(e.target.value as ConstraintOperator)}
        >
          {CONSTRAINT_OPERATORS.map((operator) => (
            <option key={operator}>{operator}</option>
          ))}
        </select>
      </div>
      {isMultiValue(constraint.operator) ? (
        <ValuesInput
          id={`${id}-values`}
          values={constraint.values ?? []}
          legalValues={field?.legalValues ?? []}
          onChange={(values) => props.onChange({ ...constraint, values })}
        />
      ) : (
        <div className="field">
          <label htmlFor={`${id}-value`}>Value</label>
          <input
            id={`${id}-value`}
            value={constraint.value ?? ""}
            list={field?.legalValues.length ? `${id}-legal` : undefined}
            onChange={(e) => props.onChange({ ...constraint, value: e.target.value })}
          />
          {field && field.legalValues.length > 0 && (
            <datalist id={`${id}-legal`}>
              {field.legalValues.map((v) => (
                <option key={v.value} value={v.value} />
              ))}
            </datalist>
          )}
        </div>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={Boolean(constraint.inverted)}
          onChange={(e) => props.onChange({ ...constraint, inverted: e.target.checked })}
        />
        Inverted (NOT)
      </label>
      {STRING_OPERATORS.has(constraint.operator) && (
        <label className="check">
          <input
            type="checkbox"
            checked={Boolean(constraint.caseInsensitive)}
            onChange={(e) => props.onChange({ ...constraint, caseInsensitive: e.target.checked })}
          />
          Case-insensitive
        </label>
      )}
      <button type="button" className="danger" onClick={props.onRemove}>
        Remove constraint {props.index + 1}
      </button>
    </fieldset>
  );
}

/** The values of IN / NOT_IN: checkboxes when the field has legal values, else a comma list. */
function ValuesInput(props: {
  id: string;
  values: string[];
  legalValues: readonly { value: string; description?: string | null }[];
  onChange(values: string[]): void;
}) {
  // The text is kept as typed (a trailing comma included); the list is parsed from it.
  const [text, setText] = useState(props.values.join(", "));
  if (props.legalValues.length > 0) {
    const chosen = new Set(props.values);
    return (
      <fieldset className="checkbox-group">
        <legend>Values</legend>
        {props.legalValues.map((legal) => (
          <label key={legal.value}>
            <input
              type="checkbox"
              checked={chosen.has(legal.value)}
              onChange={(e) =>
                props.onChange(
                  e.target.checked
                    ? [...props.values, legal.value]
                    : props.values.filter((v) => v !== legal.value),
                )
              }
            />
            {legal.value}
            {legal.description && <span className="hint"> — {legal.description}</span>}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <div className="field">
      <label htmlFor={props.id}>Values (comma-separated)</label>
      <input
        id={props.id}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          props.onChange(
            e.target.value
              .split(",")
              .map((v) => v.trim())
              .filter(Boolean),
          );
        }}
      />
    </div>
  );
}
