import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, createProject, disableFlag, enableFlag } from "../helpers/builders.ts";

/**
 * Issue 42, point 3: one change reaches every open SDK stream (`/api/client/streaming`) of its
 * scope, serialised once: each stream is sent the very same bytes. A stream whose client stops
 * reading is ended instead of holding every later message in memory.
 */
let t: TestApp;
const STREAMS = 200;
beforeAll(async () => {
  // The caps stay (streaming-caps.test.ts); raised here so that one token can hold 200 streams.
  t = await createTestApp({ VEXIL_STREAMS_PER_TOKEN: String(STREAMS), VEXIL_STREAMS_PER_NODE: "400" });
});
afterAll(() => t?.close());

type Reader = ReadableStreamDefaultReader<Uint8Array>;

/** Opens a stream; resolves once its hydration (`unleash-connected`) has been read. */
async function openStream(token: string): Promise<Reader> {
  const res = await t.app.fetch("http://vexil.test/api/client/streaming", {
    headers: { authorization: token },
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  // The hydration may come in several chunks (its JSON is a shared document): up to its end.
  let hydration = "";
  while (!hydration.endsWith("\n\n")) {
    const { value, done } = await reader.read();
    expect(done).toBe(false);
    hydration += new TextDecoder().decode(value);
  }
  expect(hydration).toMatch(/^event: unleash-connected\n/);
  return reader;
}

/** The next chunk, or a failure naming what did not come within 10 s (never a hung test). */
async function nextChunk(reader: Reader, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 10 s`)), 10_000);
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("SDK streams at scale", () => {
  it("sends one change to 200 streams of a scope as the same message, serialised once", async () => {
    await createProject(t, "fan-out", { name: "Fan out" });
    await createFlag(t, "fanned", { project: "fan-out" });
    const token = await apiToken(t, "client", "development", ["fan-out"]);
    const readers = await Promise.all(Array.from({ length: STREAMS }, () => openStream(token)));

    await enableFlag(t, "fanned", "development", "fan-out");
    const chunks = await Promise.all(readers.map((r) => nextChunk(r, "update")));
    const first = chunks[0]?.value as Uint8Array;
    const text = new TextDecoder().decode(first);
    expect(text).toMatch(/^event: unleash-updated\nid: \d+\ndata: /);
    const data = JSON.parse(text.slice(text.indexOf("data: ") + 6));
    expect(data.events).toEqual([
      expect.objectContaining({
        type: "feature-updated",
        feature: expect.objectContaining({ name: "fanned", enabled: true }),
      }),
    ]);
    // Every stream got that message, and the very same bytes: serialised and encoded once.
    for (const chunk of chunks) expect(chunk.value).toBe(first);

    // The next change, the same way.
    await disableFlag(t, "fanned", "development", "fan-out");
    const again = await Promise.all(readers.map((r) => nextChunk(r, "second update")));
    const second = again[0]?.value as Uint8Array;
    expect(new TextDecoder().decode(second)).toContain('"enabled":false');
    for (const chunk of again) expect(chunk.value).toBe(second);
    await Promise.all(readers.map((r) => r.cancel()));
  });

  it("ends a stream whose client stopped reading, and keeps serving the others", async () => {
    await createProject(t, "slow-reader", { name: "Slow reader" });
    await createFlag(t, "flapping", { project: "slow-reader" });
    const token = await apiToken(t, "client", "development", ["slow-reader"]);
    const stalled = await openStream(token);
    const reading = await openStream(token);
    // More changes than a stream may have waiting (64), while `stalled` reads nothing.
    const changes = 70;
    const received: string[] = [];
    for (let i = 0; i < changes; i++) {
      await (i % 2 === 0 ? enableFlag : disableFlag)(t, "flapping", "development", "slow-reader");
      const { value } = await nextChunk(reading, `update ${i + 1}`);
      received.push(new TextDecoder().decode(value));
    }
    expect(received).toHaveLength(changes);
    expect(received.every((m) => m.startsWith("event: unleash-updated"))).toBe(true);
    // What it was sent before the limit is still there to read, then its end.
    let messages = 0;
    for (;;) {
      const chunk = await nextChunk(stalled, "end of the stalled stream");
      if (chunk.done) break;
      messages += 1;
    }
    expect(messages).toBeGreaterThan(0);
    expect(messages).toBeLessThan(changes);
    await reading.cancel();
  });
});
