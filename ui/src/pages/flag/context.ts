import { createContext, useContext } from "react";
import { type CombinedError, useMutation } from "urql";
import type { ResultOf } from "../../lib/graphql.ts";

import { type FlagChoicesQuery, ProposeChanges } from "./queries.ts";

export type Choices = ResultOf<typeof FlagChoicesQuery>;

/** What every part of the flag page needs: which flag, the editors' choices, a reload. */
export type FlagPageContext = {
  project: string;
  name: string;
  choices: Choices | undefined;
  /** Reads the flag again from the server (after changes to its lists). */
  refresh(): void;
};

export const FlagContext = createContext<FlagPageContext | null>(null);

export function useFlag(): FlagPageContext {
  const context = useContext(FlagContext);
  if (!context) throw new Error("useFlag outside the flag page");
  return context;
}

export type Change = { action: string; payload?: unknown };
export type ChangeOutcome = { error: CombinedError | null; proposedId: number | null };

/**
 * Runs a change in one environment: directly, or, where the environment requires change
 * requests, as a proposal added to the user's draft change request (spec 4.5), so nothing
 * changes there before review.
 */
export function useEnvironmentChange(environment: string, needsReview: boolean) {
  const flag = useFlag();
  const [, propose] = useMutation(ProposeChanges);
  return async function run(
    direct: () => Promise<{ error?: CombinedError | undefined }>,
    change: Change,
  ): Promise<ChangeOutcome> {
    if (needsReview) {
      const result = await propose({
        project: flag.project,
        environment,
        changes: [{ action: change.action, feature: flag.name, payload: change.payload ?? null }],
      });
      flag.refresh();
      return { error: result.error ?? null, proposedId: result.data?.proposeChanges.databaseId ?? null };
    }
    const result = await direct();
    if (!result.error) flag.refresh();
    return { error: result.error ?? null, proposedId: null };
  };
}
