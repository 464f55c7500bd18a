import type { PGlite } from "@electric-sql/pglite";
import { PrismaClient } from "../generated/prisma/client.ts";
import type { AdapterWrapper, Database } from "./database.ts";
import { AwaitingPGliteFactory, createPglite, prepareDataDir } from "./pglite.ts";

// PGlite in the calling thread: tests, benchmarks and scripts. The server runs it on its own
// thread instead (pglite-thread.ts).

/** A PGlite data folder (or memory://) opened in this thread, with `template` as in prepareDataDir. */
export async function openPgliteFolder(
  dataDir: string,
  options: { pgliteTemplate?: string; wrap?: AdapterWrapper } = {},
): Promise<Database> {
  await prepareDataDir(dataDir, options.pgliteTemplate);
  return openPglite(await createPglite(dataDir), options.wrap);
}

/** Wraps an already opened PGlite (tests pass clones of a migrated template). */
export function openPglite(pglite: PGlite, wrap: AdapterWrapper = (f) => f): Database {
  const adapterFactory = new AwaitingPGliteFactory(pglite);
  // errorFormat "minimal": otherwise Prisma captures a stack trace at every query, for the call
  // site its error messages name (0.03 to 0.06 ms of CPU per query, a few % of a write). Errors
  // are told apart by their codes, and the stack of a thrown error still shows the caller.
  const prisma = new PrismaClient({ adapter: wrap(adapterFactory), errorFormat: "minimal" });
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
