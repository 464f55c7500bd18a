import type { Context } from "../../context.ts";
import { NotFoundError } from "../../shared/errors.ts";
import type { ClientScope } from "../client-features/client-features.read.ts";
import { environmentExists } from "../environments/environment.read.ts";
import type { CompiledState } from "../evaluation/engine.logic.ts";

/**
 * The configuration the playground evaluates: the one SDKs of that environment are served,
 * limited to the projects asked for and to those the credential may read.
 */
export async function playgroundState(
  ctx: Context,
  environment: string,
  projects: readonly string[] | null | undefined,
): Promise<CompiledState> {
  await assertEnvironmentExists(ctx, environment);
  const snapshot = await ctx.services.clientFeatures.snapshot(playgroundScope(ctx, environment, projects));
  return snapshot.compiled();
}

export function playgroundScope(
  ctx: Context,
  environment: string,
  projects: readonly string[] | null | undefined,
): ClientScope {
  const readable = ctx.principal?.projects ?? [];
  const all = readable.includes("*");
  if (!projects) return { environment, projects: all ? "*" : readable };
  return { environment, projects: all ? projects : projects.filter((p) => readable.includes(p)) };
}

async function assertEnvironmentExists(ctx: Context, environment: string) {
  if (!(await environmentExists(ctx.db, environment)))
    throw new NotFoundError(`Environment "${environment}" does not exist.`);
}
