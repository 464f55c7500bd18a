import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { normalizeConstraints } from "../feature-environments/constraints.logic.ts";
import { checkLegalValues } from "../feature-environments/legal-values.read.ts";
import {
  type NewStrategyInput,
  newStrategySchema,
  storedAsGiven,
} from "../feature-environments/strategy.inputs.ts";
import type { StrategyContent } from "../feature-environments/strategy.types.ts";
import { checkStrategySegments } from "../feature-environments/strategy-segments.read.ts";
import { normalizeStrategyVariants } from "../feature-environments/variants.logic.ts";
import { findProject } from "./project.read.ts";

/** The strategy a project gives a flag when it is enabled in an environment that has none. */
export type DefaultStrategy = StrategyContent;

/** A strategy's input, whose parameters are checked here (Unleash's messages for a default strategy). */
export type DefaultStrategyInput = Omit<NewStrategyInput, "parameters"> & { parameters?: unknown };

function parameterMap(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("parameters: must be an object of names to values", [
      { message: "parameters must be an object", path: "parameters" },
    ]);
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (!["string", "number", "boolean"].includes(typeof v)) {
        throw new ValidationError(`parameters.${k}: must be a string, number or boolean`);
      }
      return [k, String(v)];
    }),
  );
}

/**
 * Sets the strategy a project uses when a flag is enabled in `environment` (`*`: every
 * environment of the project). Validated as a flag's strategy (constraints, legal values,
 * segments, variants). Records `default-strategy-updated` per environment that changed. The
 * project row is locked first, so concurrent changes apply one after the other and each event's
 * `preData` is what the previous one wrote.
 */
export async function setDefaultStrategy(
  w: Write,
  project: string,
  environment: string,
  input: DefaultStrategyInput,
  limits: ResourceLimits,
): Promise<DefaultStrategy> {
  if (!input.name?.trim())
    throw new ValidationError("name: required", [{ message: "name is required", path: "name" }]);
  await lockRow(w.tx, "Project", project);
  await findProject(w.tx, project);
  const links = await w.tx.projectEnvironment.findMany({
    where: { projectId: project, ...(environment === "*" ? {} : { environmentName: environment }) },
    orderBy: { environmentName: "asc" },
  });
  if (links.length === 0) {
    throw new NotFoundError(`Project "${project}" has no environment "${environment}"`);
  }
  const constraints = normalizeConstraints(input.constraints ?? [], [], limits);
  await checkLegalValues(w.tx, constraints, undefined, project);
  const { parameters, ...fields } = input;
  const given = storedAsGiven(parseInput(newStrategySchema, fields));
  const strategy: DefaultStrategy = {
    ...given,
    title: given.title ?? null,
    disabled: given.disabled ?? false,
    name: input.name.trim(),
    sortOrder: input.sortOrder ?? 0,
    parameters: parameterMap(parameters),
    constraints,
    variants: normalizeStrategyVariants(input.variants ?? []),
    segments: await checkStrategySegments(w.tx, input.segments ?? [], project, limits.strategySegments),
  };
  for (const link of links) {
    await w.tx.projectEnvironment.update({
      where: { projectId_environmentName: { projectId: project, environmentName: link.environmentName } },
      data: { defaultStrategy: strategy as unknown as Prisma.InputJsonValue },
    });
    await recordEvent(w, {
      type: "default-strategy-updated",
      project,
      environment: link.environmentName,
      data: strategy,
      // The column holds what this function wrote before (or nothing).
      preData: (link.defaultStrategy as DefaultStrategy | null) ?? null,
    });
  }
  return strategy;
}
