import type { PGlite } from "@electric-sql/pglite";
import { lockDataDir } from "./data-dir-lock.ts";
import type { AdapterWrapper, Database } from "./database.ts";
import { AwaitingPGliteFactory, createPglite, prepareDataDir } from "./pglite.ts";
import { PGliteStatements, StatementCache } from "./pglite-statements.ts";
import { createPrismaClient } from "./prisma-client.ts";

// PGlite in the calling thread: tests, benchmarks and scripts. The server runs it on its own
// thread instead (pglite-thread.ts).

/** A PGlite data folder (or memory://) opened in this thread, with `template` as in prepareDataDir. */
export async function openPgliteFolder(
  dataDir: string,
  options: { pgliteTemplate?: string; wrap?: AdapterWrapper } = {},
): Promise<Database> {
  await prepareDataDir(dataDir, options.pgliteTemplate);
  const unlock = await lockDataDir(dataDir);
  const database = openPglite(
    await createPglite(dataDir).catch(async (error) => {
      await unlock();
      throw error;
    }),
    options.wrap,
  );
  return {
    ...database,
    async close() {
      await database.close();
      await unlock();
    },
  };
}

/**
 * Wraps an already opened PGlite (tests pass clones of a migrated template); `statements`: the
 * session's statement cache, when an earlier client of it left one (pglite-statements.ts).
 */
export function openPglite(
  pglite: PGlite,
  wrap: AdapterWrapper = (f) => f,
  statements = new StatementCache(),
): Database {
  // The adapter only calls the client's query, exec and transaction.
  const client = new PGliteStatements(pglite, statements) as unknown as PGlite;
  const adapterFactory = new AwaitingPGliteFactory(client);
  const prisma = createPrismaClient(wrap(adapterFactory));
  return {
    kind: "pglite",
    prisma,
    adapterFactory,
    pglite,
    async ping() {
      await pglite.query("select 1");
    },
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
  };
}
