import { useId, useState } from "react";
import { SDK_CONTEXT_FIELDS } from "../../../src/modules/evaluation/context-value.logic.ts";
import {
  CONSTRAINT_OPERATORS,
  LIST_OPERATORS,
  TEXT_OPERATORS,
} from "../../../src/modules/feature-environments/strategy.types.ts";
import { fieldProblem, messageAt, type PathProblem } from "../lib/path-problems.ts";
import { Field, SelectField } from "./form.tsx";

/*
 * The one constraint editor, for strategies and segments. The operator lists and the built-in
 * context fields are the server's own (plain values, so importing them brings no server code
 * into the bundle).
 */
export { CONSTRAINT_OPERATORS };

export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

/** The context fields every SDK sends by name, which need no definition to be used. */
export const BUILT_IN_CONTEXT_FIELDS: readonly string[] = [...SDK_CONTEXT_FIELDS];

/** A constraint as edited: both `values` and `value` kept, so switching operator loses nothing. */
export type ConstraintValue = {
  contextName: string;
  operator: ConstraintOperator;
  values: string[];
  value: string | null;
  inverted: boolean;
  caseInsensitive: boolean;
};

/** A constraint as the API returns it. */
type StoredConstraint = {
  contextName: string;
  operator: string;
  values?: readonly string[] | null;
  value?: string | null;
  inverted?: boolean | null;
  caseInsensitive?: boolean | null;
};

export type ContextFieldChoice = {
  name: string;
  legalValues: readonly { value: string; description?: string | null }[];
};

/** Operators comparing against a list (`values`); every other one takes one `value`. */
export const isListOperator = (operator: string) => LIST_OPERATORS.has(operator);

/** The editable form of a stored constraint. */
export function constraintValue(c: StoredConstraint): ConstraintValue {
  return {
    contextName: c.contextName,
    operator: c.operator as ConstraintOperator,
    values: [...(c.values ?? [])],
    value: c.value ?? null,
    inverted: Boolean(c.inverted),
    caseInsensitive: Boolean(c.caseInsensitive),
  };
}

/** What the API's ConstraintInput takes: list operators send `values`, the others one `value`. */
export function constraintInput(c: ConstraintValue) {
  return isListOperator(c.operator)
    ? { ...c, values: c.values.map((v) => v.trim()).filter(Boolean), value: null }
    : { ...c, values: [], value: c.value ?? "" };
}

/**
 * Edits a list of constraints (controlled): context field (built-in or defined), operator,
 * value(s), inverted and case-insensitive for each. The API's messages show under the control
 * they concern (`problem`, by path `constraints.N.field`) or under the list (`message`).
 */
export function ConstraintsEditor(props: {
  value: ConstraintValue[];
  onChange(value: ConstraintValue[]): void;
  contextFields: readonly ContextFieldChoice[];
  problem?: PathProblem | null;
  message?: string | undefined;
}) {
  const replace = (index: number, next: ConstraintValue) =>
    props.onChange(props.value.map((c, i) => (i === index ? next : c)));
  const remove = (index: number) => props.onChange(props.value.filter((_, i) => i !== index));
  const add = () =>
    props.onChange([
      ...props.value,
      {
        contextName: "userId",
        operator: "IN",
        values: [],
        value: null,
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
          problem={props.problem ?? null}
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
  problem: PathProblem | null;
  onChange(next: ConstraintValue): void;
  onRemove(): void;
}) {
  const id = useId();
  const { constraint: c, problem } = props;
  const n = props.index + 1;
  const path = `constraints.${props.index}`;
  const field = props.contextFields.find((f) => f.name === c.contextName);
  const defined = props.contextFields.map((f) => f.name).filter((name) => !SDK_CONTEXT_FIELDS.has(name));
  const others = [c.contextName].filter((name) => !defined.includes(name) && !SDK_CONTEXT_FIELDS.has(name));
  const rowMessage = messageAt(problem, path);
  return (
    <fieldset className="constraint" aria-describedby={rowMessage ? `${id}-row` : undefined}>
      <legend>Constraint {n}</legend>
      <SelectField
        label={`Context field of constraint ${n}`}
        name="contextName"
        value={c.contextName}
        problem={fieldProblem(problem, `${path}.contextName`, "contextName")}
        onChange={(e) => props.onChange({ ...c, contextName: e.target.value })}
      >
        <optgroup label="Built-in">
          {BUILT_IN_CONTEXT_FIELDS.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </optgroup>
        {defined.length + others.length > 0 && (
          <optgroup label="Defined">
            {[...defined, ...others].map((name) => (
              <option key={name}>{name}</option>
            ))}
          </optgroup>
        )}
      </SelectField>
      <SelectField
        label={`Operator of constraint ${n}`}
        name="operator"
        value={c.operator}
        problem={fieldProblem(problem, `${path}.operator`, "operator")}
        onChange={(e) => props.onChange({ ...c, operator: e.target.value as ConstraintOperator })}
      >
        {CONSTRAINT_OPERATORS.map((operator) => (
          <option key={operator}>{operator}</option>
        ))}
      </SelectField>
      {isListOperator(c.operator) ? (
        <ValuesInput
          n={n}
          values={c.values}
          legalValues={field?.legalValues ?? []}
          problem={fieldProblem(problem, `${path}.values`, "values")}
          onChange={(values) => props.onChange({ ...c, values })}
        />
      ) : (
        <>
          <Field
            label={`Value of constraint ${n}`}
            name="value"
            value={c.value ?? ""}
            list={field?.legalValues.length ? `${id}-legal` : undefined}
            problem={fieldProblem(problem, `${path}.value`, "value")}
            onChange={(e) => props.onChange({ ...c, value: e.target.value })}
          />
          {field && field.legalValues.length > 0 && (
            <datalist id={`${id}-legal`}>
              {field.legalValues.map((v) => (
                <option key={v.value} value={v.value} />
              ))}
            </datalist>
          )}
        </>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={c.inverted}
          onChange={(e) => props.onChange({ ...c, inverted: e.target.checked })}
        />
        Inverted (NOT)
      </label>
      {TEXT_OPERATORS.has(c.operator) && (
        <label className="check">
          <input
            type="checkbox"
            checked={c.caseInsensitive}
            onChange={(e) => props.onChange({ ...c, caseInsensitive: e.target.checked })}
          />
          Case-insensitive
        </label>
      )}
      <button type="button" className="danger" onClick={props.onRemove}>
        Remove constraint {n}
      </button>
      {rowMessage && (
        <p className="field-error" id={`${id}-row`} role="alert">
          {rowMessage}
        </p>
      )}
    </fieldset>
  );
}

/** A list operator's values: checkboxes when the field has legal values, else a comma list. */
function ValuesInput(props: {
  n: number;
  values: string[];
  legalValues: readonly { value: string; description?: string | null }[];
  problem: ReturnType<typeof fieldProblem>;
  onChange(values: string[]): void;
}) {
  // The text is kept as typed (a trailing comma included); the list is parsed from it.
  const [text, setText] = useState(props.values.join(", "));
  const message = props.problem.fields.values;
  if (props.legalValues.length > 0) {
    const chosen = new Set(props.values);
    return (
      <fieldset className="checkbox-group">
        <legend>Values of constraint {props.n}</legend>
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
        {message && (
          <p className="field-error" role="alert">
            {message}
          </p>
        )}
      </fieldset>
    );
  }
  return (
    <Field
      label={`Values of constraint ${props.n} (comma-separated)`}
      name="values"
      value={text}
      problem={props.problem}
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
  );
}
