import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, lastEventId } from "../helpers/builders.ts";
import { sse } from "./live-helpers.ts";

/**
 * `app.close()` (shutdown, and every test app's close) ends what the app's services hold: open
 * subscriptions and SDK streams end, and no interval of theirs (the feed's poll, the revocation
 * backstop, a stream's keep-alive) keeps running, so a closed app leaves nothing behind that
 * still wakes up and keeps its database reachable.
 */
let t: TestApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
});

/** Reads a response body to its end; resolves with everything it carried. */
async function readToEnd(body: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    onText(text);
  }
}

describe("closing an app", () => {
  it("ends its subscriptions and SDK streams and leaves no interval running", async () => {
    // Only intervals are counted: the database's own timeouts are none of the app's.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    t = await createTestApp();
    const app = t.app;
    expect(vi.getTimerCount()).toBe(0);
    const secret = await apiToken(t, "client", "development", ["*"]);

    const subscription = sse<{ events: { featureName: string } }>(
      app,
      "subscription($afterId: Long) { events(afterId: $afterId) { featureName } }",
      { afterId: await lastEventId(t) },
    );
    const delivered = subscription.next();
    await createFlag(t, "before-close");
    expect((await delivered).value?.data?.events.featureName).toBe("before-close");

    const streaming = await app.fetch("http://vexil.test/api/client/streaming", {
      headers: { authorization: secret },
    });
    expect(streaming.status).toBe(200);
    let connected: () => void = () => undefined;
    const hydrated = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const streamed = readToEnd(streaming.body as ReadableStream<Uint8Array>, (text) => {
      if (text.includes("event: unleash-connected")) connected();
    });
    await hydrated;
    // The feed's poll, the revocation backstop and the stream's keep-alive.
    expect(vi.getTimerCount()).toBeGreaterThanOrEqual(3);

    await app.close();
    expect((await subscription.next()).done).toBe(true);
    expect(await streamed).toContain("event: unleash-connected");
    expect(vi.getTimerCount()).toBe(0);
  });
});
