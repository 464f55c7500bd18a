import { randomUUID } from "node:crypto";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
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

/** The input's milestones as stored, each with a new id. */
function milestonesOf(input: TemplateInput): Milestone[] {
  return input.milestones.map((m) => ({
    id: randomUUID(),
    name: m.name,
    afterSeconds: m.afterSeconds ?? null,
    strategies: m.strategies.map((s) => ({
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
