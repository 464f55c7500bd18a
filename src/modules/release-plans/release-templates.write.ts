import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { ConflictError, InvalidOperationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { storedAsGiven } from "../feature-environments/strategy.inputs.ts";
import type { Milestone, ReleaseTemplate } from "./release-plan.types.ts";
import { type TemplateInput, templateInput } from "./release-plans.inputs.ts";
import { lockTemplate, templateOf } from "./release-plans.read.ts";

/** A template as events carry it. */
export const templatePayload = (t: ReleaseTemplate) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  milestones: t.milestones,
});

/** The input's milestones as stored; the `i`-th keeps `ids[i]` when given (an edit), else a new id. */
function milestonesOf(input: TemplateInput, ids: string[] = []): Milestone[] {
  return input.milestones.map((m, i) => ({
    id: ids[i] ?? randomUUID(),
    name: m.name,
    afterSeconds: m.afterSeconds ?? null,
    // Every field of a strategy is kept (storedAsGiven), so applying the milestone stores it.
    strategies: m.strategies.map((s) => ({
      ...storedAsGiven(s),
      name: s.name,
      title: s.title ?? null,
      disabled: s.disabled ?? false,
      parameters: s.parameters ?? {},
      constraints: (s.constraints ?? []) as Record<string, unknown>[],
      variants: (s.variants ?? []) as Record<string, unknown>[],
      segments: s.segments ?? [],
    })),
  }));
}

const asJson = (milestones: Milestone[]) => milestones as unknown as Prisma.InputJsonValue;

/** Creates a template (release-plan-template-created). Throws Validation, NameExists (409). */
export async function createTemplate(w: Write, input: unknown): Promise<ReleaseTemplate> {
  const parsed = parseInput(templateInput, input);
  const row = await w.tx.releasePlanTemplate.create({
    data: {
      id: randomUUID(),
      name: parsed.name,
      description: parsed.description ?? null,
      milestones: asJson(milestonesOf(parsed)),
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  const template = templateOf(row);
  await recordEvent(w, { type: "release-plan-template-created", data: templatePayload(template) });
  return template;
}

/**
 * Replaces a template's name, description and milestones (release-plan-template-updated, with
 * what it was); a milestone keeps the id of the one it replaces at its position. Plans made from
 * it keep the milestones they copied. No change, no event. Throws NotFound, Validation,
 * NameExists (409), InvalidOperation (archived: a template no plan can be made from is not edited).
 */
export async function updateTemplate(w: Write, id: string, input: unknown): Promise<ReleaseTemplate> {
  const parsed = parseInput(templateInput, input);
  const before = await lockTemplate(w.tx, id, "update");
  if (before.archivedAt) {
    throw new InvalidOperationError(
      `The release template "${before.name}" is archived: it cannot be edited.`,
    );
  }
  const milestones = milestonesOf(
    parsed,
    before.milestones.map((m) => m.id),
  );
  const after = { ...before, name: parsed.name, description: parsed.description ?? null, milestones };
  if (isDeepStrictEqual(templatePayload(after), templatePayload(before))) return before;
  const row = await w.tx.releasePlanTemplate.update({
    where: { id },
    data: { name: after.name, description: after.description, milestones: asJson(milestones) },
  });
  const updated = templateOf(row);
  await recordEvent(w, {
    type: "release-plan-template-updated",
    data: templatePayload(updated),
    preData: templatePayload(before),
  });
  return updated;
}

/** Archives a template (release-plan-template-archived): no new plans from it; plans made keep theirs. */
export async function archiveTemplate(w: Write, id: string): Promise<ReleaseTemplate> {
  const template = await lockTemplate(w.tx, id, "update");
  if (template.archivedAt) return template;
  const archived = templateOf(
    await w.tx.releasePlanTemplate.update({ where: { id }, data: { archivedAt: w.now } }),
  );
  await recordEvent(w, { type: "release-plan-template-archived", preData: templatePayload(archived) });
  return archived;
}

/**
 * Deletes a template no plan was made from (release-plan-template-deleted); one in use is 409
 * naming the plans' flags and environments (archive it instead). The row is locked first, and a
 * plan being made from it holds it shared: a plan is either counted here or refused (NotFound).
 * Throws NotFound, Conflict.
 */
export async function deleteTemplate(w: Write, id: string): Promise<ReleaseTemplate> {
  const template = await lockTemplate(w.tx, id, "update");
  const plans = await w.tx.releasePlan.findMany({
    where: { templateId: id },
    select: { featureName: true, environment: true },
    orderBy: [{ featureName: "asc" }, { environment: "asc" }],
    take: 20,
  });
  if (plans.length > 0) {
    const where = plans.map((p) => `${p.featureName} (${p.environment})`).join(", ");
    throw new ConflictError(
      `The release template "${template.name}" is used by the release plans of ${where}: archive it instead.`,
    );
  }
  await w.tx.releasePlanTemplate.delete({ where: { id } });
  await recordEvent(w, { type: "release-plan-template-deleted", preData: templatePayload(template) });
  return template;
}
