import { describe, expect, it, vi } from "vitest";
import {
  checkIdleMemory,
  IDLE_BUSY_SHARE,
  type MemoryProbe,
  RECLAIM_GROWTH_BYTES,
  startIdleMemoryReclaim,
} from "../../src/shared/idle-memory.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { emptyPglite } from "../helpers/database.ts";

const MIB = 1024 * 1024;

/** A process whose memory in use and event-loop load the test sets; `collect` frees garbage. */
function fakeProcess(used: number, garbage: number, busy: number) {
  const process = { used, garbage, busy, collections: 0 };
  const probe: MemoryProbe = {
    used: () => process.used,
    busy: () => process.busy,
    collect: () => {
      process.collections++;
      process.used -= process.garbage;
      process.garbage = 0;
    },
  };
  return { process, probe };
}

describe("giving back the memory of a burst of heavy requests", () => {
  it("collects once the server is idle and memory grew since the last collection", () => {
    const { process, probe } = fakeProcess(100 * MIB, 0, 0.9);
    const state = { baseline: 100 * MIB };
    // A burst: 300 MiB in use, 250 of it garbage, the loop busy: nothing happens meanwhile.
    Object.assign(process, { used: 400 * MIB, garbage: 250 * MIB, busy: 0.9 });
    expect(checkIdleMemory(probe, state)).toBe(false);
    // The next quiet interval: one full collection, and the baseline is what stays in use.
    process.busy = IDLE_BUSY_SHARE / 2;
    expect(checkIdleMemory(probe, state)).toBe(true);
    expect(process.used).toBe(150 * MIB);
    expect(state.baseline).toBe(150 * MIB);
    // Idle and nothing new: no further collections.
    expect(checkIdleMemory(probe, state)).toBe(false);
    expect(process.collections).toBe(1);
  });

  it("leaves small growth to V8's own schedule", () => {
    const { process, probe } = fakeProcess(100 * MIB, 0, 0);
    const state = { baseline: 100 * MIB };
    process.used += RECLAIM_GROWTH_BYTES - 1;
    expect(checkIdleMemory(probe, state)).toBe(false);
    process.used += 1;
    expect(checkIdleMemory(probe, state)).toBe(true);
  });

  it("collects what start-up left at the first quiet interval, then only after growth", () => {
    vi.useFakeTimers();
    try {
      const { process, probe } = fakeProcess(120 * MIB, 60 * MIB, 0);
      const stop = startIdleMemoryReclaim(createLogger("silent"), probe);
      vi.advanceTimersByTime(5_000);
      expect(process.collections).toBe(1);
      expect(process.used).toBe(60 * MIB);
      vi.advanceTimersByTime(20_000);
      expect(process.collections).toBe(1);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("lowers its baseline when V8 collected by itself", () => {
    const { process, probe } = fakeProcess(200 * MIB, 0, 0);
    const state = { baseline: 200 * MIB };
    process.used = 120 * MIB;
    expect(checkIdleMemory(probe, state)).toBe(false);
    expect(state.baseline).toBe(120 * MIB);
  });
});

describe("the embedded database's memory", () => {
  it("keeps a 32 MB page cache (its WebAssembly memory never shrinks)", async () => {
    // createPglite's settings on a copy of initdb's data dir (initdb itself costs seconds of CPU).
    const pglite = await emptyPglite();
    const { rows } = await pglite.query<{ shared_buffers: string }>("SHOW shared_buffers");
    expect(rows[0]?.shared_buffers).toBe("32MB");
    await pglite.close();
  });
});
