import type { PrismaClient } from "../../src/generated/prisma/client.ts";
import { hashSecret } from "../../src/modules/access/credentials.write.ts";

/**
 * Direct Prisma seeding for search tests: tags, segments, strategies, lifecycle rows and
 * metrics are written as rows, so these tests do not depend on other slices' mutations.
 */
export type FlagSeed = {
  name: string;
  project?: string;
  type?: string;
  description?: string;
  createdAt?: Date;
  createdByUserId?: number | null;
  stale?: boolean;
  potentiallyStale?: boolean;
  archivedAt?: Date;
  lastSeenAt?: Date;
  tags?: string[];
  segments?: string[];
  enabledIn?: string[];
  stages?: string[];
};

const ENVIRONMENTS = ["development", "production"];

export async function seedFlag(db: PrismaClient, seed: FlagSeed): Promise<void> {
  await db.feature.create({
    data: {
      name: seed.name,
      projectId: seed.project ?? "default",
      type: seed.type ?? "release",
      description: seed.description ?? null,
      createdAt: seed.createdAt ?? new Date(),
      createdByUserId: seed.createdByUserId === undefined ? null : seed.createdByUserId,
      stale: seed.stale ?? false,
      potentiallyStale: seed.potentiallyStale ?? false,
      archivedAt: seed.archivedAt ?? null,
      lastSeenAt: seed.lastSeenAt ?? null,
      environments: {
        create: ENVIRONMENTS.map((env) => ({
          environmentName: env,
          enabled: (seed.enabledIn ?? []).includes(env),
        })),
      },
      lifecycle: {
        create: (seed.stages ?? ["initial"]).map((stage, i) => ({
          stage,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        })),
      },
    },
  });
  for (const tag of seed.tags ?? []) await tagFlag(db, seed.name, tag);
  if (seed.segments?.length) await useSegments(db, seed.name, seed.segments);
}

/** Tags `type:value` (split on the first colon), creating the tag type and tag when missing. */
export async function tagFlag(db: PrismaClient, featureName: string, tag: string): Promise<void> {
  const colon = tag.indexOf(":");
  const type = tag.slice(0, colon);
  const value = tag.slice(colon + 1);
  await db.tagType.upsert({ where: { name: type }, create: { name: type }, update: {} });
  await db.tag.upsert({ where: { type_value: { type, value } }, create: { type, value }, update: {} });
  await db.featureTag.create({ data: { featureName, tagType: type, tagValue: value } });
}

/** Adds a flexibleRollout strategy in development that uses the named segments. */
export async function useSegments(db: PrismaClient, featureName: string, names: string[]): Promise<void> {
  const feature = await db.feature.findUniqueOrThrow({ where: { name: featureName } });
  const ids: number[] = [];
  for (const name of names) {
    const segment = await db.segment.upsert({ where: { name }, create: { name }, update: {} });
    ids.push(segment.id);
  }
  await db.featureStrategy.create({
    data: {
      featureName,
      projectId: feature.projectId,
      environmentName: "development",
      strategyName: "flexibleRollout",
      segments: { create: ids.map((segmentId) => ({ segmentId })) },
    },
  });
}

/** A user with a personal access token; returns the user id and the token to send. */
export async function seedUser(db: PrismaClient, username: string) {
  const user = await db.user.create({ data: { username, email: `${username}@example.com`, name: username } });
  const secret = `user:${username.padEnd(56, "0")}`;
  await db.personalAccessToken.create({
    data: {
      userId: user.id,
      description: "search tests",
      secretHash: hashSecret(secret),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return { id: user.id, token: secret };
}

export function day(iso: string): Date {
  return new Date(`${iso}T12:00:00.000Z`);
}
