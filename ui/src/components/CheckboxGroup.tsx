/**
 * A fieldset of checkboxes choosing a subset of `options` (controlled). `emptyMeans` explains
 * what choosing none does (e.g. "all projects").
 */
export function CheckboxGroup(props: {
  legend: string;
  options: { value: string; label?: string }[];
  value: string[];
  onChange(value: string[]): void;
  emptyMeans?: string;
  message?: string | undefined;
}) {
  const chosen = new Set(props.value);
  function toggle(option: string, on: boolean) {
    props.onChange(props.options.map((o) => o.value).filter((v) => (v === option ? on : chosen.has(v))));
  }
  return (
    <fieldset className="checkbox-group">
      <legend>{props.legend}</legend>
      {props.options.length === 0 && <p className="hint">None to choose from.</p>}
      {props.options.map((option) => (
        <label key={option.value}>
          <input
            type="checkbox"
            checked={chosen.has(option.value)}
            onChange={(e) => toggle(option.value, e.target.checked)}
          />
          {option.label ?? option.value}
        </label>
      ))}
      {props.emptyMeans && <p className="hint">None chosen: {props.emptyMeans}.</p>}
      {props.message && (
        <p className="field-error" role="alert">
          {props.message}
        </p>
      )}
    </fieldset>
  );
}
