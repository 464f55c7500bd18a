import { recordEvent } from "../../events/record.ts";
import { NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { featureInProject } from "../features/feature.read.ts";
import { projectById } from "../projects/project.read.ts";

/**
 * Favourites belong to the acting user. An admin API token acts as the shared "Admin API
 * token" service user (-42), so scripts using it can favourite and see their favourites.
 */
function ownerId(w: Write): number {
  if (w.actor.userId === null) throw new NotFoundError("Favourites need a user behind the credential");
  return w.actor.userId;
}

/** Favourites a flag for the caller: `feature-favorited` `{feature}`; already a favourite: nothing. */
export async function favoriteFeature(w: Write, projectId: string, name: string) {
  const feature = await featureInProject(w.tx, projectId, name);
  const userId = ownerId(w);
  // ON CONFLICT DO NOTHING: a second concurrent click is a no-op, not a 409.
  const added = await w.tx.favoriteFeature.createMany({
    data: [{ userId, featureName: name, createdAt: w.now }],
    skipDuplicates: true,
  });
  if (added.count > 0) {
    await recordEvent(w, { type: "feature-favorited", featureName: name, data: { feature: name } });
  }
  return feature;
}

/** Removes a favourite flag: `feature-unfavorited` `{feature}`; not a favourite: nothing. */
export async function unfavoriteFeature(w: Write, projectId: string, name: string) {
  const feature = await featureInProject(w.tx, projectId, name);
  const removed = await w.tx.favoriteFeature.deleteMany({ where: { userId: ownerId(w), featureName: name } });
  if (removed.count > 0) {
    await recordEvent(w, { type: "feature-unfavorited", featureName: name, data: { feature: name } });
  }
  return feature;
}

async function activeProject(w: Write, projectId: string) {
  const project = await projectById(w.tx, projectId);
  if (!project || project.archivedAt)
    throw new NotFoundError(`Could not find project with id "${projectId}"`);
  return project;
}

/** Favourites a project for the caller: `project-favorited` `{project}`; already one: nothing. */
export async function favoriteProject(w: Write, projectId: string) {
  const project = await activeProject(w, projectId);
  const userId = ownerId(w);
  const added = await w.tx.favoriteProject.createMany({
    data: [{ userId, projectId, createdAt: w.now }],
    skipDuplicates: true,
  });
  if (added.count > 0) {
    await recordEvent(w, { type: "project-favorited", project: projectId, data: { project: projectId } });
  }
  return project;
}

/** Removes a favourite project: `project-unfavorited` `{project}`; not a favourite: nothing. */
export async function unfavoriteProject(w: Write, projectId: string) {
  const project = await activeProject(w, projectId);
  const removed = await w.tx.favoriteProject.deleteMany({ where: { userId: ownerId(w), projectId } });
  if (removed.count > 0) {
    await recordEvent(w, { type: "project-unfavorited", project: projectId, data: { project: projectId } });
  }
  return project;
}
