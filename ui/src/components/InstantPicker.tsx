import { useId, useState } from "react";

const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
/** How far back the slider reaches; the date-and-time field goes anywhere. */
const SLIDER_DAYS = 30;
const DAY_MINUTES = 24 * 60;

/** `date` as a datetime-local value (local time, to the second). */
export function toLocalInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * MINUTE);
  return local.toISOString().slice(0, 19);
}

export const formatInstant = (date: Date) =>
  date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

/**
 * An instant chosen with a slider over the last 30 days (arrow keys move a minute, Page Up/Down
 * a larger step) or typed to the second in a date-and-time field.
 */
export function InstantPicker(props: { label: string; value: Date; now: Date; onChange(value: Date): void }) {
  const id = useId();
  // The slider counts minutes back from now (small integers: browsers step them exactly).
  const span = SLIDER_DAYS * DAY_MINUTES;
  const minutesBack = Math.round((props.now.getTime() - props.value.getTime()) / MINUTE);
  // What was typed, shown until the chosen instant comes back as the value: the page may take
  // the value from its address, a render later, and a controlled field showing the old value
  // meanwhile would hand it back with the next change event.
  const [typed, setTyped] = useState<{ text: string; over: number } | null>(null);
  const fieldText = typed && typed.over === props.value.getTime() ? typed.text : toLocalInput(props.value);
  return (
    <fieldset className="instant-picker">
      <legend>{props.label}</legend>
      <div className="field">
        <label htmlFor={`${id}-range`}>{props.label}: last 30 days</label>
        <input
          id={`${id}-range`}
          type="range"
          min={0}
          max={span}
          step={1}
          value={span - Math.min(span, Math.max(0, minutesBack))}
          aria-valuetext={formatInstant(props.value)}
          onChange={(e) =>
            props.onChange(new Date(props.now.getTime() - (span - Number(e.target.value)) * MINUTE))
          }
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-at`}>{props.label}: date and time</label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          step={1}
          value={fieldText}
          onChange={(e) => {
            setTyped({ text: e.target.value, over: props.value.getTime() });
            // Partly typed values read as "": keep the last complete one.
            const instant = e.target.value ? new Date(e.target.value) : null;
            if (instant && !Number.isNaN(instant.getTime())) props.onChange(instant);
          }}
        />
      </div>
    </fieldset>
  );
}
