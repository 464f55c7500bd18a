import type { Tx } from "../../db/database.ts";
import type { ProjectPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import {
  InvalidOperationError,
  LimitExceededError,
  NameExistsError,
  ValidationError,
} from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { enabledEnvironmentNames, existingEnvironmentNames } from "../environments/environment.read.ts";
import { activeFlagCount } from "../features/feature.read.ts";
import {
  type CreateProjectInput,
  createProjectSchema,
  type UpdateProjectInput,
  updateProjectSchema,
} from "./project.inputs.ts";
import { findProject } from "./project.read.ts";

type ProjectRow = {
  id: string;
  name: string;
  description: string | null;
  defaultStickiness: string;
  featureLimit: number | null;
  archivedAt: Date | null;
};

/** The project as stored, the shape of `data`/`preData` of project events. */
export function projectRecord(p: ProjectRow): ProjectPayload {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    mode: "open",
    defaultStickiness: p.defaultStickiness,
    featureLimit: p.featureLimit,
    archived: p.archivedAt !== null,
  };
}

/**
 * Creates a project linked to the given environments (default: every enabled environment, as
 * Unleash's open-source edition does). Without an id, one is derived from the name.
 * Records `project-created`. Throws Validation, NameExists (id taken), Validation (unknown environment),
 * LimitExceeded (`projects`, counting active projects).
 */
export async function createProject(w: Write, input: CreateProjectInput, projectLimit: number) {
  const data = parseInput(createProjectSchema, input);
  const id = data.id ?? (await freeIdFromName(w.tx, data.name));
  if (await w.tx.project.findUnique({ where: { id }, select: { id: true } })) {
    throw new NameExistsError(`A project with the id "${id}" already exists.`);
  }
  const environments = await environmentsToLink(w.tx, data.environments ?? null);
  await lockLimitedResource(w.tx, "project");
  if ((await w.tx.project.count({ where: { archivedAt: null } })) >= projectLimit) {
    throw new LimitExceededError("project", projectLimit);
  }
  const project = await w.tx.project.create({
    data: {
      id,
      name: data.name,
      description: data.description ?? null,
      createdAt: w.now,
      updatedAt: w.now,
      environments: {
        create: environments.map((environmentName) => ({ environmentName, createdAt: w.now })),
      },
    },
  });
  await recordEvent(w, {
    type: "project-created",
    project: id,
    data: { ...projectRecord(project), environments },
  });
  return project;
}

/** Updates name and description. Records `project-updated` (nothing when nothing changes). */
export async function updateProject(w: Write, id: string, input: UpdateProjectInput) {
  await lockRow(w.tx, "Project", id);
  const data = parseInput(updateProjectSchema, input);
  const before = await findProject(w.tx, id);
  const changes = {
    ...(data.name !== undefined ? { name: data.name } : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
  };
  const preview = { ...before, ...changes };
  if (JSON.stringify(projectRecord(preview)) === JSON.stringify(projectRecord(before))) return before;
  const after = await w.tx.project.update({ where: { id }, data: { ...changes, updatedAt: w.now } });
  await recordEvent(w, {
    type: "project-updated",
    project: id,
    data: projectRecord(after),
    preData: projectRecord(before),
  });
  return after;
}

/**
 * Archives a project that has no active flags (as Unleash: 403 InvalidOperationError
 * otherwise). Archiving an archived project changes nothing. Records `project-archived`.
 */
export async function archiveProject(w: Write, id: string) {
  await lockRow(w.tx, "Project", id);
  const project = await findProject(w.tx, id);
  if (project.archivedAt) return project;
  const activeFlags = await activeFlagCount(w.tx, id);
  if (activeFlags > 0) {
    throw new InvalidOperationError(
      `Project "${id}" still has ${activeFlags} active feature flag(s); archive or move them before archiving the project.`,
    );
  }
  const archived = await w.tx.project.update({
    where: { id },
    data: { archivedAt: w.now, updatedAt: w.now },
  });
  await recordEvent(w, { type: "project-archived", project: id });
  return archived;
}

/**
 * Brings an archived project back (counting against the `projects` limit). Reviving an active
 * project changes nothing. Records `project-revived`.
 */
export async function reviveProject(w: Write, id: string, projectLimit: number) {
  await lockRow(w.tx, "Project", id);
  const project = await findProject(w.tx, id);
  if (!project.archivedAt) return project;
  await lockLimitedResource(w.tx, "project");
  if ((await w.tx.project.count({ where: { archivedAt: null } })) >= projectLimit) {
    throw new LimitExceededError("project", projectLimit);
  }
  const revived = await w.tx.project.update({ where: { id }, data: { archivedAt: null, updatedAt: w.now } });
  await recordEvent(w, { type: "project-revived", project: id });
  return revived;
}

async function environmentsToLink(tx: Tx, requested: string[] | null): Promise<string[]> {
  if (requested === null) {
    return enabledEnvironmentNames(tx);
  }
  const names = [...new Set(requested)];
  const found = await existingEnvironmentNames(tx, names);
  const missing = names.filter((n) => !found.includes(n));
  if (missing.length > 0) {
    throw new ValidationError(`environments: unknown environment(s) ${missing.join(", ")}`, [
      { path: "environments", message: `unknown environment(s) ${missing.join(", ")}` },
    ]);
  }
  return names;
}

/** A URL-friendly id from a display name, suffixed `-2`, `-3`, ... until free. */
async function freeIdFromName(tx: Tx, name: string): Promise<string> {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9\-._~]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 90) || "project";
  const taken = new Set(
    (await tx.project.findMany({ where: { id: { startsWith: base } }, select: { id: true } })).map(
      (p) => p.id,
    ),
  );
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
