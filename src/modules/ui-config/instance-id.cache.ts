import type { Db } from "../../db/database.ts";
import { readInstanceId } from "./ui-config.read.ts";

/** The instance's id as this node read it: written once by the bootstrap, never changed. */
export type InstanceId = { get(): Promise<string | null> };

/** Reads the id until it is found, then remembers it (one per app). */
export function rememberInstanceId(db: Pick<Db, "setting">): InstanceId {
  let found: string | null = null;
  return {
    async get() {
      found ??= await readInstanceId(db);
      return found;
    },
  };
}
