import type { ResourceLimits } from "../../config.ts";
import { DomainError, ValidationError } from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import type { Write } from "../../shared/write.ts";
import type { Principal } from "../access/principal.types.ts";
import { ensureContextField } from "../context-fields/context-field.write.ts";
import { addDependency, removeDependency } from "../dependencies/dependencies.write.ts";
import { parentLinksOf } from "../dependencies/dependency.read.ts";
import { changeEnablement } from "../feature-environments/enablement.write.ts";
import { setEnvironmentVariants } from "../feature-environments/environment-variants.write.ts";
import { assertDependencyChangeAllowed } from "../feature-environments/guards.read.ts";
import type { NewStrategyInput, VariantInput } from "../feature-environments/strategy.inputs.ts";
import { replaceStrategies } from "../feature-environments/strategy-replace.write.ts";
import { createFeature } from "../features/feature-create.write.ts";
import { linksOfFlag } from "../features/feature-links.read.ts";
import { addFeatureLink, normalizeLinkUrl, removeFeatureLink } from "../features/feature-links.write.ts";
import { tagsOfFlags } from "../features/feature-tags.read.ts";
import { addFeatureTag, removeFeatureTag } from "../features/feature-tags.write.ts";
import { updateFeature } from "../features/feature-update.write.ts";
import { ensureTagType } from "../tags/tag.write.ts";
import type { ExportDocument } from "./export-document.inputs.ts";
import { type ImportItem, type ImportPlan, planImport } from "./import-plan.read.ts";

export type ImportTarget = { project: string; environment: string };
export type ImportResult = { created: string[]; updated: string[]; events: number };

/** The refusal of an import: 400 with every problem as a detail. */
export function importRefusal(errors: ImportItem[]): ValidationError {
  const details = errors.map((e) => ({ message: `${e.message} ${e.affectedItems.join(", ")}` }));
  return new ValidationError(
    `The import cannot be applied (${errors.length} problem${errors.length === 1 ? "" : "s"}): ${details.map((d) => d.message).join(" | ")}`,
    details,
  );
}

/**
 * Imports an Unleash export document into a project and one environment, in the caller's
 * transaction, through the same services as the API (so the same events): tag types and
 * context fields that do not exist are created; new flags are created and existing ones of the
 * project updated (feature-metadata-updated, feature-stale-on/off); each flag's tags and
 * parent dependencies become the imported ones (feature-tagged/-untagged,
 * feature-dependency-added/-removed); in the environment its strategies are replaced when they
 * differ, its variants set, and it is turned on or off. Importing the same file again changes
 * nothing and records nothing. Refused before any write with a ValidationError listing every
 * problem (see planImport), or FORBIDDEN listing the missing permissions.
 */
export async function importFeatures(
  w: Write,
  principal: Principal,
  target: ImportTarget,
  data: unknown,
  limits: ResourceLimits,
): Promise<ImportResult> {
  // Flag creations take this lock anyway; taken first, a concurrent import of the same new
  // flags waits here and then plans against what the first one committed (updates, no clash).
  await lockLimitedResource(w.tx, "feature");
  const plan = await planImport(w.tx, principal, target.project, target.environment, data);
  if (plan.errors.length > 0 || !plan.doc) throw importRefusal(plan.errors);
  const missing = plan.permissions.flatMap((p) => p.affectedItems);
  if (missing.length > 0) {
    throw new DomainError(
      "FORBIDDEN",
      `You don't have the required permissions to perform this operation. To import this data you need: ${missing.join(", ")}.`,
      undefined,
      { permissions: missing },
    );
  }
  return applyImport(w, plan.doc, plan, { ...target, principal }, limits);
}

async function applyImport(
  w: Write,
  doc: ExportDocument,
  plan: ImportPlan,
  { project, environment, principal }: ImportTarget & { principal: Principal },
  limits: ResourceLimits,
): Promise<ImportResult> {
  for (const t of doc.tagTypes) await ensureTagType(w, t);
  for (const f of doc.contextFields ?? []) {
    await ensureContextField(w, {
      name: f.name,
      description: f.description,
      stickiness: f.stickiness ?? undefined,
      sortOrder: f.sortOrder ?? undefined,
      legalValues: f.legalValues ?? undefined,
    });
  }
  const created: string[] = [];
  const updated: string[] = [];
  for (const f of doc.features) {
    const fields = {
      type: f.type ?? "release",
      description: f.description ?? null,
      impressionData: !!f.impressionData,
    };
    if (plan.existing.has(f.name)) {
      await updateFeature(w, project, f.name, { ...fields, stale: !!f.stale });
      updated.push(f.name);
    } else {
      await createFeature(w, project, { name: f.name, ...fields }, limits.featureFlags);
      if (f.stale) await updateFeature(w, project, f.name, { stale: true });
      created.push(f.name);
    }
  }
  await importTags(w, doc);
  await importDependencies(w, doc, project, principal);
  await importLinks(w, doc, project);
  await importEnvironment(w, doc, plan, { project, environment }, limits);
  return { created, updated, events: w.recorded.length };
}

/** Each imported flag ends with exactly its imported tags. */
async function importTags(w: Write, doc: ExportDocument) {
  const names = doc.features.map((f) => f.name);
  const wanted = new Map<string, Set<string>>(names.map((n) => [n, new Set()]));
  for (const t of doc.featureTags ?? [])
    wanted.get(t.featureName)?.add(`${t.tagType ?? "simple"}\u0000${t.tagValue}`);
  const current = await tagsOfFlags(w.tx, names);
  for (const t of current) {
    const key = `${t.tagType}\u0000${t.tagValue}`;
    if (wanted.get(t.featureName)?.delete(key)) continue;
    await removeFeatureTag(w, t.featureName, { type: t.tagType, value: t.tagValue });
  }
  for (const [featureName, keys] of wanted) {
    for (const key of keys) {
      const [type = "", value = ""] = key.split("\u0000");
      await addFeatureTag(w, featureName, { type, value });
    }
  }
}

/**
 * A flag the document lists under `links` ends with exactly those links (same URL and title;
 * others removed, missing ones added, with their events); flags it does not list keep theirs.
 */
async function importLinks(w: Write, doc: ExportDocument, project: string) {
  const imported = new Set(doc.features.map((f) => f.name));
  for (const entry of doc.links ?? []) {
    if (!imported.has(entry.feature)) continue;
    const key = (l: { url: string; title?: string | null }) => `${l.url}\u0000${l.title || ""}`;
    const wanted = entry.links.map((l) => ({ url: normalizeLinkUrl(l.url), title: l.title || null }));
    const wantedKeys = new Set(wanted.map(key));
    const current = await linksOfFlag(w.tx, entry.feature);
    const kept = new Set<string>();
    for (const link of current) {
      if (wantedKeys.has(key(link)) && !kept.has(key(link))) kept.add(key(link));
      else await removeFeatureLink(w, project, entry.feature, link.id);
    }
    for (const link of wanted) {
      if (kept.has(key(link))) continue;
      kept.add(key(link));
      await addFeatureLink(w, project, entry.feature, link);
    }
  }
}

/**
 * Each imported flag ends with exactly its imported parents (added or changed, others removed).
 * Parent links apply in every environment: a change to them passes the dependency guard (D-26).
 */
async function importDependencies(w: Write, doc: ExportDocument, project: string, principal: Principal) {
  const names = doc.features.map((f) => f.name);
  const wanted = new Map((doc.dependencies ?? []).map((d) => [d.feature, d.dependencies]));
  const current = await parentLinksOf(w.tx, names);
  if (dependenciesChange(current, wanted)) await assertDependencyChangeAllowed(w, principal, project);
  for (const d of current) {
    if (!(wanted.get(d.childName) ?? []).some((p) => p.feature === d.parentName)) {
      await removeDependency(w, project, d.childName, d.parentName);
    }
  }
  for (const [child, parents] of wanted) {
    for (const p of parents) {
      await addDependency(w, project, child, {
        feature: p.feature,
        enabled: p.enabled ?? undefined,
        variants: p.variants ?? undefined,
      });
    }
  }
}

type ImportedParent = { feature: string; enabled?: boolean | null; variants?: string[] | null };

/** Whether importing `wanted` would add, change or remove a parent link (as addDependency stores one). */
function dependenciesChange(
  current: { childName: string; parentName: string; enabled: boolean; variants: string[] }[],
  wanted: Map<string, ImportedParent[]>,
): boolean {
  const stored = new Map(current.map((d) => [`${d.childName}\u0000${d.parentName}`, d]));
  let kept = 0;
  for (const [child, parents] of wanted) {
    for (const p of parents) {
      const link = stored.get(`${child}\u0000${p.feature}`);
      const enabled = p.enabled ?? true;
      const variants = enabled ? [...new Set(p.variants ?? [])] : [];
      if (!link || link.enabled !== enabled || link.variants.join("\u0000") !== variants.join("\u0000"))
        return true;
      kept++;
    }
  }
  return kept !== current.length;
}

/** Strategies, variants and on/off of each imported flag in the target environment. */
async function importEnvironment(
  w: Write,
  doc: ExportDocument,
  plan: ImportPlan,
  { project, environment }: ImportTarget,
  limits: ResourceLimits,
) {
  const strategies = new Map<string, NewStrategyInput[]>();
  for (const s of doc.featureStrategies) {
    const list = strategies.get(s.featureName) ?? [];
    list.push({
      name: s.name,
      title: s.title,
      disabled: s.disabled,
      sortOrder: s.sortOrder,
      parameters: s.parameters,
      constraints: (s.constraints ?? []) as NewStrategyInput["constraints"],
      variants: (s.variants ?? []) as NewStrategyInput["variants"],
      segments: (s.segments ?? []).map((id) => plan.segmentIds.get(id) ?? id),
    });
    strategies.set(s.featureName, list);
  }
  const states = new Map((doc.featureEnvironments ?? []).map((fe) => [fe.featureName ?? fe.name ?? "", fe]));
  for (const f of doc.features) {
    const target = { project, environment, feature: f.name };
    const state = states.get(f.name);
    await withContext(`${f.name} in "${environment}"`, async () => {
      if (strategies.has(f.name) || state)
        await replaceStrategies(w, target, strategies.get(f.name) ?? [], limits);
      if (!state) return;
      await setEnvironmentVariants(w, target, (state.variants ?? []) as VariantInput[]);
      await changeEnablement(w, target, { enabled: state.enabled }, limits);
    });
  }
}

/** A validation error of one flag's data names the flag (the API's paths alone would not). */
async function withContext(what: string, work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(
        `${what}: ${error.message}`,
        error.details.map((d) => ({ ...d, message: `${what}: ${d.message}` })),
      );
    }
    throw error;
  }
}
