import type { Tx } from "../../db/database.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS, type Permission, type PermissionCheck } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { contextFieldCount, contextFieldsNamed } from "../context-fields/context-field.read.ts";
import { isKnownStrategy } from "../evaluation/strategies.logic.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { LIST_OPERATORS } from "../feature-environments/strategy.types.ts";
import { activeFlagNames, featureTypeIds, flagsNamed } from "../features/feature.read.ts";
import { projectWithEnvironment } from "../projects/project.read.ts";
import { segmentsNamed } from "../segments/segment.read.ts";
import { tagTypeNames } from "../tags/tag.read.ts";
import { type ExportDocument, exportDocumentSchema } from "./export-document.inputs.ts";

/** One finding of a validation: Unleash's importTogglesValidateItemSchema. */
export type ImportItem = { message: string; affectedItems: string[] };

export type ImportPlan = {
  doc: ExportDocument | null;
  errors: ImportItem[];
  warnings: ImportItem[];
  /** Permissions the caller lacks for this import (each item: a message and permission names). */
  permissions: ImportItem[];
  /** Flags of the document that exist in the project (updated), and the new ones (created). */
  existing: Set<string>;
  /** Source segment id -> target segment id (matched by name). */
  segmentIds: Map<number, number>;
};

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * Checks an import of `data` (an Unleash export document) into `project`/`environment` before
 * anything is written, as Unleash's validate does: errors that refuse it, warnings, and the
 * permissions the caller lacks. Reads only. Throws NotFound for an unknown project, or an
 * environment the project does not have.
 */
export async function planImport(
  tx: Tx,
  principal: Principal,
  project: string,
  environment: string,
  data: unknown,
): Promise<ImportPlan> {
  const plan: ImportPlan = {
    doc: null,
    errors: [],
    warnings: [],
    permissions: [],
    existing: new Set(),
    segmentIds: new Map(),
  };
  const target = await projectWithEnvironment(tx, project, environment);
  if (!target || target.archivedAt) throw new NotFoundError(`Could not find project with id "${project}"`);
  if (target.environments.length === 0) {
    throw new NotFoundError(`Could not find environment "${environment}" in project "${project}"`);
  }
  const parsed = exportDocumentSchema.safeParse(data);
  if (!parsed.success) {
    plan.errors.push({
      message: "The data is not an export document (Unleash's exportResultSchema):",
      affectedItems: parsed.error.issues
        .slice(0, 20)
        .map((i) => `${["data", ...i.path].join(".")}: ${i.message}`),
    });
    return plan;
  }
  const doc = parsed.data;
  plan.doc = doc;
  const error = (message: string, items: Iterable<string>) => {
    const affectedItems = sorted(items);
    if (affectedItems.length > 0) plan.errors.push({ message, affectedItems });
  };
  const warning = (message: string, items: Iterable<string>) => {
    const affectedItems = sorted(items);
    if (affectedItems.length > 0) plan.warnings.push({ message, affectedItems });
  };

  const names = doc.features.map((f) => f.name);
  const nameSet = new Set(names);
  error(
    "The following flags appear more than once in `features`:",
    names.filter((n, i) => names.indexOf(n) !== i),
  );
  const envName = (fe: { featureName?: string | null; name?: string | null }) =>
    fe.featureName ?? fe.name ?? "";
  const referenced = [
    ...doc.featureStrategies.map((s) => s.featureName),
    ...(doc.featureEnvironments ?? []).map(envName),
    ...(doc.featureTags ?? []).map((t) => t.featureName),
    ...(doc.dependencies ?? []).map((d) => d.feature),
  ];
  error(
    "The following flags are referred to by strategies, environments, tags or dependencies but are not in `features`:",
    referenced.filter((n) => !nameSet.has(n)),
  );

  const stored = await flagsNamed(tx, names);
  error(
    `You cannot import flags that already exist in other projects. You already have the following flags defined outside of project "${project}":`,
    stored.filter((f) => f.projectId !== project).map((f) => `${f.name} (project ${f.projectId})`),
  );
  error(
    "The following flags will not be imported as they are currently archived. To import them, please unarchive them first:",
    stored.filter((f) => f.projectId === project && f.archivedAt).map((f) => f.name),
  );
  for (const f of stored) if (f.projectId === project && !f.archivedAt) plan.existing.add(f.name);
  warning(
    `The following flags already exist in project "${project}" and will be updated: their settings, tags and dependencies, and their strategies, variants and state in "${environment}", become the imported ones:`,
    plan.existing,
  );

  const types = new Set(await featureTypeIds(tx));
  error(
    "The following flag types do not exist:",
    doc.features.map((f) => f.type ?? "release").filter((t) => !types.has(t)),
  );

  const tagTypesUsed = (doc.featureTags ?? []).map((t) => t.tagType ?? "simple");
  const knownTagTypes = new Set([
    ...doc.tagTypes.map((t) => t.name),
    ...(await tagTypeNames(tx, tagTypesUsed)),
  ]);
  error(
    "The following tag types are used by `featureTags` but are neither in `tagTypes` nor defined here:",
    tagTypesUsed.filter((t) => !knownTagTypes.has(t)),
  );

  await checkContextFields(tx, doc, error);
  await checkSegments(tx, doc, project, plan, error);

  const parents = (doc.dependencies ?? []).flatMap((d) => d.dependencies.map((p) => p.feature));
  const storedParents = new Set(await activeFlagNames(tx, parents, project));
  error(
    `The following dependencies have parents that are neither in the import nor active flags of project "${project}":`,
    (doc.dependencies ?? []).flatMap((d) =>
      d.dependencies
        .filter((p) => !nameSet.has(p.feature) && !storedParents.has(p.feature))
        .map((p) => `${d.feature} -> ${p.feature}`),
    ),
  );

  warning(
    "The following strategy types will be used in import. Please make sure the strategy type parameters are configured as in source environment:",
    doc.featureStrategies.map((s) => s.name).filter((n) => !isKnownStrategy(n)),
  );

  const missing = sorted(
    (await requiredPermissions(tx, doc, plan, project, environment))
      .filter((check) => !can(principal, check))
      .map((check) => check.permission),
  );
  if (missing.length > 0) {
    plan.permissions.push({
      message: "We detected you are missing the following permissions:",
      affectedItems: missing,
    });
  }
  return plan;
}

type Report = (message: string, items: Iterable<string>) => void;

/**
 * Context fields: an existing field must already allow every legal value the imported one has
 * (Unleash's rule), and every constraint value on a field with legal values must be one of
 * them (the field as it will be: the existing one, else the imported one).
 */
async function checkContextFields(tx: Tx, doc: ExportDocument, error: Report) {
  const imported = doc.contextFields ?? [];
  const constraintNames = doc.featureStrategies.flatMap((s) =>
    (s.constraints ?? []).map((c) => String(c.contextName ?? "")),
  );
  const existing = await contextFieldsNamed(tx, [...imported.map((f) => f.name), ...constraintNames]);
  const legal = new Map<string, string[]>();
  for (const f of imported)
    legal.set(
      f.name,
      (f.legalValues ?? []).map((v) => v.value),
    );
  const mismatched: string[] = [];
  for (const f of existing) {
    const values = (f.legalValues as { value: string }[]).map((v) => v.value);
    const wanted = legal.get(f.name) ?? [];
    if (values.length > 0 && wanted.some((v) => !values.includes(v))) mismatched.push(f.name);
    legal.set(f.name, values);
  }
  error(
    "We detected the following context fields that do not have matching legal values with the imported ones:",
    mismatched,
  );
  const illegal: string[] = [];
  for (const s of doc.featureStrategies) {
    for (const c of s.constraints ?? []) {
      const allowed = legal.get(String(c.contextName ?? ""));
      if (!allowed || allowed.length === 0) continue;
      const given = LIST_OPERATORS.has(String(c.operator))
        ? ((c.values as string[] | undefined) ?? [])
        : [c.value];
      for (const v of given) {
        if (!allowed.includes(String(v)))
          illegal.push(`${s.featureName}: ${String(c.contextName)} "${String(v)}"`);
      }
    }
  }
  error("The following constraint values are not legal values of their context field:", illegal);
}

/** Segments travel by name (the format carries only id and name): each must exist here. */
async function checkSegments(tx: Tx, doc: ExportDocument, project: string, plan: ImportPlan, error: Report) {
  const byId = new Map((doc.segments ?? []).map((s) => [s.id, s.name]));
  const used = [...new Set(doc.featureStrategies.flatMap((s) => s.segments ?? []))];
  error(
    "Strategies use segment ids that are not listed in `segments`:",
    used.filter((id) => !byId.has(id)).map(String),
  );
  const wantedNames = used.flatMap((id) => byId.get(id) ?? []);
  const found = await segmentsNamed(tx, wantedNames);
  const byName = new Map(found.map((s) => [s.name, s]));
  error(
    "We detected the following segments in the import file that need to be created first:",
    wantedNames.filter((n) => !byName.has(n)),
  );
  error(
    `The following segments belong to another project than "${project}":`,
    found
      .filter((s) => s.projectId && s.projectId !== project)
      .map((s) => `${s.name} (project ${s.projectId})`),
  );
  for (const id of used) {
    const segment = byName.get(byId.get(id) ?? "");
    if (segment) plan.segmentIds.set(id, segment.id);
  }
}

/** What the import will do, as the permission checks the same operations through the API need. */
async function requiredPermissions(
  tx: Tx,
  doc: ExportDocument,
  plan: ImportPlan,
  project: string,
  environment: string,
): Promise<PermissionCheck[]> {
  const checks: PermissionCheck[] = [];
  const need = (permission: Permission, inEnvironment = false) =>
    checks.push({ permission, project, ...(inEnvironment ? { environment } : {}) });
  if (doc.features.some((f) => !plan.existing.has(f.name))) need(PERMISSIONS.CREATE_FEATURE);
  if (plan.existing.size > 0) need(PERMISSIONS.UPDATE_FEATURE);
  if ((doc.dependencies ?? []).length > 0) need(PERMISSIONS.UPDATE_FEATURE_DEPENDENCY);
  const tagTypes = await tagTypeNames(
    tx,
    doc.tagTypes.map((t) => t.name),
  );
  if (tagTypes.length < new Set(doc.tagTypes.map((t) => t.name)).size) {
    checks.push({ permission: PERMISSIONS.CREATE_TAG_TYPE });
  }
  const fields = (doc.contextFields ?? []).map((f) => f.name);
  const storedFields = await contextFieldCount(tx, fields);
  if (storedFields < new Set(fields).size) checks.push({ permission: PERMISSIONS.CREATE_CONTEXT_FIELD });
  const environmentData = doc.featureStrategies.length > 0 || (doc.featureEnvironments ?? []).length > 0;
  if (environmentData) {
    need(PERMISSIONS.CREATE_FEATURE_STRATEGY, true);
    need(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT, true);
    need(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT_VARIANTS, true);
    if (plan.existing.size > 0) need(PERMISSIONS.DELETE_FEATURE_STRATEGY, true);
    if (await changeRequestSetting(tx, project, environment)) need(PERMISSIONS.SKIP_CHANGE_REQUEST, true);
  }
  return checks;
}
