import type { Context } from "../../context.ts";
import { AuthenticationRequired } from "../../shared/errors.ts";
import { runWrite } from "../../shared/write.ts";
import type { StateChange } from "./change-request.inputs.ts";
import { changeState } from "./transitions.write.ts";
import { changeRequestView } from "./view.read.ts";

/** The caller; root fields declare `authenticated`, so a missing one is a 401. */
export function principalOf(ctx: Context) {
  if (!ctx.principal) throw new AuthenticationRequired();
  return ctx.principal;
}

/** Reads the stored request back for the response. */
export async function viewAfter(ctx: Context, id: number) {
  const view = await changeRequestView(ctx.db, id, ctx.changeKinds);
  if (!view) throw new Error(`change request ${id} vanished after a successful write`);
  return view;
}

/**
 * Runs a state change. Applying groups its events under the request (`change-request` + id,
 * reference-behaviours §3.1); other transitions are ordinary transactions.
 */
export async function runStateChange(ctx: Context, project: string, id: number, input: StateChange) {
  const principal = principalOf(ctx);
  const group = input.state === "Applied" ? { groupType: "change-request", groupId: String(id) } : {};
  await runWrite(
    ctx,
    (w) => changeState({ w, principal, limits: ctx.config.limits }, project, id, input),
    group,
  );
  return viewAfter(ctx, id);
}
