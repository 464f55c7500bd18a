import type { ResourceLimits } from "../config.ts";
import type { Tx } from "../db/database.ts";
import type { Write } from "./write.ts";

/** Where a proposed change applies: its request's project and environment, and its flag (none: a segment). */
export type ChangeTarget = { project: string; environment: string; feature: string | null };

/**
 * What a kind of change does when a module above `change-requests` owns what it changes
 * (release plans, D-26): `change-requests` proposes, stores, checks, shows and applies it through
 * these functions, which the app gives it (src/change-kinds.ts → AppBase.changeKinds → every
 * Write, and the reads that show conflicts), so it never imports that module (a module cycle).
 * The kind's name and payload shape stay `change-requests`' (change-request.inputs.ts).
 */
export type ChangeKind = {
  /** Applies it as the direct change would, in the request's Write. */
  apply(w: Write, target: ChangeTarget, payload: unknown, limits: ResourceLimits): Promise<void>;
  /** Throws NotFound when what the payload names is not where the change applies (when proposed). */
  checkReferences(tx: Tx, target: ChangeTarget, payload: unknown): Promise<void>;
  /** What it acts on as it is now, kept with the change to tell a conflict later; null: nothing. */
  snapshot(tx: Tx, target: ChangeTarget, payload: unknown): Promise<unknown>;
  /** Why it can no longer be applied as proposed, or null. */
  conflict(tx: Tx, target: ChangeTarget, payload: unknown, snapshot: unknown): Promise<string | null>;
};

/** The kinds a module above `change-requests` owns, by action name. */
export type ChangeKinds = Readonly<Record<string, ChangeKind>>;
