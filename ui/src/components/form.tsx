import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  useId,
} from "react";
import type { ApiProblem } from "../lib/errors.ts";

/**
 * A labelled control with the API's message for it underneath (`problem.fields[name]`), tied
 * to the control by aria-describedby so screen readers read it with the field.
 */
export function Field(
  props: InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; problem?: ApiProblem | null },
) {
  const { label, problem, ...input } = props;
  const id = useId();
  const message = problem?.fields[props.name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? `${id}-error` : undefined}
        {...input}
      />
      {message && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

export function SelectField(
  props: SelectHTMLAttributes<HTMLSelectElement> & {
    label: string;
    name: string;
    problem?: ApiProblem | null;
    children: ReactNode;
  },
) {
  const { label, problem, children, ...select } = props;
  const id = useId();
  const message = problem?.fields[props.name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-describedby={message ? `${id}-error` : undefined} {...select}>
        {children}
      </select>
      {message && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** The API's messages that belong to no field of the form. */
export function ProblemBanner(props: { problem: ApiProblem | null | undefined; showFieldErrors?: boolean }) {
  const problem = props.problem;
  if (!problem) return null;
  const messages = [...problem.general, ...(props.showFieldErrors ? Object.values(problem.fields) : [])];
  if (messages.length === 0) return null;
  return (
    <div className="banner error" role="alert">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/** A form's submit button, and Cancel when the form can be closed without saving. */
export function SubmitButtons(props: {
  busy: boolean;
  children: ReactNode;
  onCancel?: (() => void) | undefined;
}) {
  return (
    <>
      <button type="submit" disabled={props.busy}>
        {props.children}
      </button>
      {props.onCancel && (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </>
  );
}

/**
 * A form that creates a `noun` ("segment") or edits the one named `editing`: the fields, then
 * Create or Save with Cancel, then the API's messages that belong to no field.
 */
export function CreateOrEditForm(props: {
  noun: string;
  editing: string | number | undefined;
  className?: string;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  busy: boolean;
  problem: ApiProblem | null;
  onCancel: (() => void) | undefined;
  children: ReactNode;
}) {
  const { noun, editing } = props;
  return (
    <form
      className={props.className}
      onSubmit={props.onSubmit}
      aria-label={editing === undefined ? `New ${noun}` : `Edit ${noun} ${editing}`}
    >
      {props.children}
      <div className="form-actions">
        <SubmitButtons busy={props.busy} onCancel={props.onCancel}>
          {editing === undefined ? `Create ${noun}` : `Save ${noun}`}
        </SubmitButtons>
      </div>
      <ProblemBanner problem={props.problem} />
    </form>
  );
}
