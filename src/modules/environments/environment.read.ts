import type { Db, Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

/** Whether an environment named `name` exists. */
export async function environmentExists(db: Db | Tx, name: string): Promise<boolean> {
  return (await db.environment.findUnique({ where: { name }, select: { name: true } })) !== null;
}

/** The environment `name`, or null. */
export function environmentNamed(db: Db | Tx, name: string) {
  return db.environment.findUnique({ where: { name } });
}

/** The names of the enabled environments, in their order. */
export async function enabledEnvironmentNames(db: Db | Tx): Promise<string[]> {
  const enabled = await db.environment.findMany({
    where: { enabled: true },
    orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
    select: { name: true },
  });
  return enabled.map((e) => e.name);
}

/** Which of `names` are environments. */
export async function existingEnvironmentNames(db: Db | Tx, names: string[]): Promise<string[]> {
  const found = await db.environment.findMany({ where: { name: { in: names } }, select: { name: true } });
  return found.map((f) => f.name);
}

/** The names of the environments of type production. */
export async function productionEnvironmentNames(db: Db): Promise<string[]> {
  return (await db.environment.findMany({ where: { type: "production" }, select: { name: true } })).map(
    (e) => e.name,
  );
}

/** How many environments there are. */
export function environmentCount(db: Db) {
  return db.environment.count();
}

/** The environment `name` as a Pothos field's `query` asks for it. */
export function environmentForQuery(
  db: Db | Tx,
  query: { include?: Prisma.EnvironmentInclude; select?: Prisma.EnvironmentSelect },
  name: string,
) {
  return db.environment.findUniqueOrThrow({ ...query, where: { name } });
}
