import type { FormEvent } from "react";
import { type AnyVariables, type CombinedError, type DocumentInput, useMutation } from "urql";
import { problemOf } from "./errors.ts";

/** A form field's text, or null when it was left empty. */
export function optionalText(data: FormData, key: string): string | null {
  return String(data.get(key) || "") || null;
}

/**
 * A submit handler: sends the form's data with `save` and, once the API accepted it, calls
 * `done` with the form (to reset it or close it).
 */
export function submitWith(
  save: (data: FormData) => Promise<{ error?: CombinedError | undefined }>,
  done: (form: HTMLFormElement) => void,
) {
  return async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const outcome = await save(new FormData(form));
    if (!outcome.error) done(form);
  };
}

/**
 * The two mutations of a form that creates a thing or edits an `existing` one; `problem` is
 * what the API said about the one the form runs.
 */
export function useCreateOrUpdate<
  CreateData,
  CreateVariables extends AnyVariables,
  UpdateData,
  UpdateVariables extends AnyVariables,
>(
  createDocument: DocumentInput<CreateData, CreateVariables>,
  updateDocument: DocumentInput<UpdateData, UpdateVariables>,
  existing: unknown,
) {
  const [created, create] = useMutation(createDocument);
  const [updated, update] = useMutation(updateDocument);
  return {
    create,
    update,
    busy: created.fetching || updated.fetching,
    problem: problemOf(existing ? updated.error : created.error),
  };
}

/**
 * A form that creates one thing after another: submitting sends `document` with the variables
 * `variablesOf` reads from the form; once the API accepted them the form is emptied for the next
 * one and `onCreated` runs. `problem` is what the API said about the last attempt.
 */
export function useCreateForm<Data, Variables extends AnyVariables>(
  document: DocumentInput<Data, Variables>,
  variablesOf: (data: FormData) => Variables,
  onCreated: () => void,
) {
  const [result, create] = useMutation(document);
  const submit = submitWith(
    (data) => create(variablesOf(data)),
    (form) => {
      form.reset();
      onCreated();
    },
  );
  return { submit, busy: result.fetching, problem: problemOf(result.error) };
}
