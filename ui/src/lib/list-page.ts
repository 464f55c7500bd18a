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
