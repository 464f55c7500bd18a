import { useState } from "react";
import { type AnyVariables, type CombinedError, type UseQueryArgs, useQuery } from "urql";
import { type ApiProblem, problemOf } from "./errors.ts";

export type ActionOutcome = { error?: CombinedError | undefined };

/**
 * A list page's query and the actions on its rows: an action's error is kept as `problem`
 * until the next action, and a successful one reloads the list from the server.
 */
export function useListPage<Data, Variables extends AnyVariables>(args: UseQueryArgs<Variables, Data>) {
  const [result, refetch] = useQuery<Data, Variables>({ ...args, requestPolicy: "cache-and-network" });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const reload = () => refetch({ requestPolicy: "network-only" });

  async function perform<Result extends ActionOutcome>(
    action: Promise<Result>,
    thenReload = true,
  ): Promise<Result> {
    const outcome = await action;
    setProblem(problemOf(outcome.error));
    if (!outcome.error && thenReload) reload();
    return outcome;
  }

  /** Runs `action` once the user has said yes to `question`. */
  async function confirmThen(question: string, action: () => Promise<ActionOutcome>): Promise<void> {
    if (window.confirm(question)) await perform(action());
  }

  return { result, data: result.data, reload, problem, perform, confirmThen };
}

/**
 * Which form of a list page is open, one at a time: the create form (`"new"`), the edit form of
 * the row with id `open`, or none. Closing the create form after a save reloads the list (the new
 * row is not in the cached list; an edit's answer updates the cache by itself).
 */
export function useOpenForm(reload: () => void) {
  const [open, setOpen] = useState<number | "new" | null>(null);
  return {
    open,
    openNew: () => setOpen("new"),
    edit: (id: number) => setOpen(id),
    close: () => setOpen(null),
    closeNew: (saved: boolean) => {
      setOpen(null);
      if (saved) reload();
    },
  };
}
