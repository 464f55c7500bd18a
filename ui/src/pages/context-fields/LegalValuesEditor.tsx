import { useId } from "react";

type LegalValue = { value: string; description: string };

/** Rows of value + description; none means the field takes any value. */
export function LegalValuesEditor(props: {
  value: LegalValue[];
  onChange(value: LegalValue[]): void;
  message?: string | undefined;
}) {
  const id = useId();
  const set = (index: number, next: LegalValue) =>
    props.onChange(props.value.map((v, i) => (i === index ? next : v)));
  return (
    <fieldset className="legal-values">
      <legend>Legal values</legend>
      {props.value.length === 0 && <p className="hint">None: any value is accepted.</p>}
      {props.value.map((legal, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the list being edited
        <div className="row-form" key={index}>
          <div className="field">
            <label htmlFor={`${id}-${index}-value`}>Legal value {index + 1}</label>
            <input
              id={`${id}-${index}-value`}
              value={legal.value}
              required
              onChange={(e) => set(index, { ...legal, value: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-${index}-description`}>Description of value {index + 1}</label>
            <input
              id={`${id}-${index}-description`}
              value={legal.description}
              onChange={(e) => set(index, { ...legal, description: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="danger"
            onClick={() => props.onChange(props.value.filter((_, i) => i !== index))}
          >
            Remove value {index + 1}
          </button>
        </div>
      ))}
      {props.message && (
        <p className="field-error" role="alert">
          {props.message}
        </p>
      )}
      <button
        type="button"
        className="secondary"
        onClick={() => props.onChange([...props.value, { value: "", description: "" }])}
      >
        Add legal value
      </button>
    </fieldset>
  );
}
