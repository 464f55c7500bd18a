import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Unleash, UnleashEvents } from "unleash-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../helpers/admin.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { apiToken, createFlag, disableFlag, enableFlag, soleVariant } from "../helpers/builders.ts";
import { readMetrics } from "../helpers/metrics.ts";

/**
 * SDK documents prepared once per version of a scope's configuration (D-32): the same bytes in
 * every encoding, serialised and compressed once per version, a new version only when what the
 * scope holds changes, and the node's SDK caches within VEXIL_SDK_CACHE_MB (a quarter MiB here,
 * so that made-up filters, contexts and scopes reach the bound). The counts are read from
 * /metrics, as an operator would.
 */
let t: ListeningTestApp;
let client: string;
let frontend: string;

const get = async (path: string, auth: string, headers: Record<string, string> = {}): Promise<Response> =>
  t.app.fetch(`http://vexil.test${path}`, { headers: { authorization: auth, ...headers } });
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

/** A constraint long enough that a flag's entry is kilobytes: documents get compressed. */
const manyValues = (prefix: string) => Array.from({ length: 120 }, (_, i) => `${prefix}-value-${i}`);

async function richFlag(name: string, enabledIn: string[] = ["development"]) {
  await createFlag(t, name, {
    // Kilobytes in every environment's record, an unknown one's too (scopes the bound test makes up).
    description: `${name} ${"d".repeat(3000)}`,
    strategies: [
      {
        name: "flexibleRollout",
        parameters: { rollout: "100", stickiness: "default", groupId: name },
        constraints: [{ contextName: "region", operator: "NOT_IN", values: manyValues(name) }],
        variants: [soleVariant("big", { type: "string", value: `${name}:${"x".repeat(1500)}` })],
      },
    ],
    enabledIn,
  });
}

/** The SDK cache figures of /metrics. */
async function sdkMetrics() {
  const value = await readMetrics(t);
  return {
    serialised: value("vexil_sdk_documents_serialised_total"),
    gzip: value('vexil_sdk_document_compressions_total{encoding="gzip"}'),
    br: value('vexil_sdk_document_compressions_total{encoding="br"}'),
    newVersions: value('vexil_sdk_configuration_reads_total{version="new"}'),
    sameVersions: value('vexil_sdk_configuration_reads_total{version="same"}'),
    documentBytes: value('vexil_sdk_cache_bytes{cache="documents"}'),
    documentMax: value('vexil_sdk_cache_max_bytes{cache="documents"}'),
    documentEntries: value('vexil_sdk_cache_entries{cache="documents"}'),
    configurationBytes: value('vexil_sdk_cache_bytes{cache="configurations"}'),
    configurationMax: value('vexil_sdk_cache_max_bytes{cache="configurations"}'),
    configurationEntries: value('vexil_sdk_cache_entries{cache="configurations"}'),
  };
}

beforeAll(async () => {
  t = await createListeningTestApp({ VEXIL_SDK_CACHE_MB: "0.25" });
  client = await apiToken(t, "client", "development", ["*"]);
  frontend = await apiToken(t, "frontend", "development", ["*"]);
  await richFlag("doc-alpha");
  await richFlag("doc-beta");
});
afterAll(() => t?.close());

describe("one document, every encoding", () => {
  it("gzip and brotli answers decompress to the identical bytes, with one ETag (client, frontend, OFREP bulk)", async () => {
    const requests: [string, (headers: Record<string, string>) => Promise<Response>][] = [
      ["client features", (h) => get("/api/client/features?namePrefix=doc-", client, h)],
      ["frontend API", (h) => get("/api/frontend?userId=encodings", frontend, h)],
      [
        "OFREP bulk",
        async (h) =>
          t.app.fetch("http://vexil.test/ofrep/v1/evaluate/flags", {
            method: "POST",
            headers: { authorization: client, "content-type": "application/json", ...h },
            body: JSON.stringify({ context: { targetingKey: "encodings" } }),
          }),
      ],
    ];
    for (const [what, request] of requests) {
      const plain = await request({});
      expect(plain.headers.get("content-encoding"), what).toBeNull();
      const bytes = await bytesOf(plain);
      expect(bytes.length, what).toBeGreaterThan(1024);
      const gz = await request({ "accept-encoding": "gzip" });
      expect(gz.headers.get("content-encoding"), what).toBe("gzip");
      expect(gz.headers.get("vary"), what).toBe("accept-encoding");
      expect(gunzipSync(await bytesOf(gz)).equals(bytes), what).toBe(true);
      const br = await request({ "accept-encoding": "gzip, deflate, br" });
      expect(br.headers.get("content-encoding"), what).toBe("br");
      expect(brotliDecompressSync(await bytesOf(br)).equals(bytes), what).toBe(true);
      expect(new Set([plain, gz, br].map((r) => r.headers.get("etag"))).size, what).toBe(1);
      const refused = await request({ "accept-encoding": "br;q=0, gzip;q=0" });
      expect((await bytesOf(refused)).equals(bytes), what).toBe(true);
    }
  });
});

describe("once per version", () => {
  it("a document is serialised once and compressed once per encoding, however many ask and how", async () => {
    await richFlag("once-flag");
    const path = "/api/client/features?namePrefix=once-";
    const before = await sdkMetrics();
    const answers = await Promise.all(
      ["", "gzip", "br", "gzip", "br", "", "gzip"].map((encoding) =>
        get(path, client, encoding ? { "accept-encoding": encoding } : {}),
      ),
    );
    const etag = answers[0]!.headers.get("etag")!;
    for (let i = 0; i < 3; i++) {
      expect((await get(path, client, { "if-none-match": etag, "accept-encoding": "br" })).status).toBe(304);
      expect((await get(path, client, { "accept-encoding": "gzip" })).status).toBe(200);
    }
    const after = await sdkMetrics();
    expect(after.serialised - before.serialised).toBe(1);
    expect(after.gzip - before.gzip).toBe(1);
    expect(after.br - before.br).toBe(1);
  });

  it("a toggle in the scope changes the ETag and the compressed body; one elsewhere changes neither", async () => {
    await richFlag("version-flag");
    const path = "/api/client/features?namePrefix=version-";
    const first = await get(path, client, { "accept-encoding": "gzip" });
    const etag = first.headers.get("etag")!;
    const firstBody = JSON.parse(gunzipSync(await bytesOf(first)).toString());
    expect(firstBody.features.map((f: { enabled: boolean }) => f.enabled)).toEqual([true]);

    // Production is another scope: the development token's version holds, nothing is rebuilt.
    const before = await sdkMetrics();
    await enableFlag(t, "version-flag", "production");
    const same = await get(path, client, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(same.status).toBe(304);
    expect((await get(path, client, { "accept-encoding": "gzip" })).headers.get("etag")).toBe(etag);
    const held = await sdkMetrics();
    expect(held.sameVersions).toBeGreaterThan(before.sameVersions);
    expect(held.newVersions).toBe(before.newVersions);
    expect(held.serialised).toBe(before.serialised);
    expect(held.gzip).toBe(before.gzip);

    await disableFlag(t, "version-flag", "development");
    const changed = await get(path, client, { "accept-encoding": "gzip", "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    const changedBody = JSON.parse(gunzipSync(await bytesOf(changed)).toString());
    expect(changedBody.features.map((f: { enabled: boolean }) => f.enabled)).toEqual([false]);
    const moved = await sdkMetrics();
    expect(moved.newVersions).toBe(held.newVersions + 1);
    expect(moved.gzip).toBe(held.gzip + 1);
  });

  it("unleash-client gets 304s while its scope's version holds, and a change in its environment", async () => {
    await createFlag(t, "sdk-seen", { enabledIn: ["development"] });
    const sdk = new Unleash({
      url: `${t.url}/api/`,
      appName: "sdk-documents-test",
      customHeaders: { Authorization: client },
      refreshInterval: 50,
      disableMetrics: true,
    });
    sdk.on(UnleashEvents.Error, () => undefined);
    try {
      await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
      expect(sdk.isEnabled("sdk-seen")).toBe(true);
      let changes = 0;
      sdk.on(UnleashEvents.Changed, () => changes++);
      const before = await sdkMetrics();
      await enableFlag(t, "sdk-seen", "production");
      // Polls after the toggle find the same version: 304, so the SDK reports `unchanged`.
      await new Promise<void>((resolve) => {
        const check = async () => {
          if ((await sdkMetrics()).sameVersions > before.sameVersions) {
            sdk.off(UnleashEvents.Unchanged, listener);
            sdk.once(UnleashEvents.Unchanged, () => resolve());
          }
        };
        const listener = () => void check();
        sdk.on(UnleashEvents.Unchanged, listener);
      });
      expect(changes).toBe(0);
      expect((await sdkMetrics()).serialised).toBe(before.serialised);
      await disableFlag(t, "sdk-seen", "development");
      await new Promise<void>((resolve) => {
        const listener = () => {
          if (sdk.isEnabled("sdk-seen")) return;
          sdk.off(UnleashEvents.Changed, listener);
          resolve();
        };
        sdk.on(UnleashEvents.Changed, listener);
      });
      expect(sdk.isEnabled("sdk-seen")).toBe(false);
    } finally {
      sdk.destroy();
    }
  });
});

describe("bounded", () => {
  it("made-up filters, contexts and scopes keep both caches within their bounds, and answers right", async () => {
    const reference = await get("/api/client/features?namePrefix=doc-", client);
    const referenceBytes = await bytesOf(reference);
    for (let i = 0; i < 40; i++) {
      // The same flags under another filter: a document of its own, kilobytes each.
      const res = await get(
        `/api/client/features?namePrefix=doc-&project=default&project=made-up-${i}`,
        client,
      );
      expect(res.status).toBe(200);
      await bytesOf(res);
      expect((await get(`/api/frontend?userId=made-up-${i}`, frontend)).status).toBe(200);
      expect(
        (await get(`/api/client/features?environment=made-up-${i}&namePrefix=doc-`, ADMIN_TOKEN)).status,
      ).toBe(200);
    }
    const m = await sdkMetrics();
    expect(m.documentMax).toBe(2 ** 17);
    expect(m.documentBytes).toBeLessThanOrEqual(m.documentMax);
    expect(m.documentEntries).toBeLessThan(120);
    expect(m.configurationMax).toBe(2 ** 17);
    expect(m.configurationBytes).toBeLessThanOrEqual(m.configurationMax);
    expect(m.configurationEntries).toBeLessThan(41);
    // What was dropped is built again, the same bytes under the same ETag.
    const again = await get("/api/client/features?namePrefix=doc-", client);
    expect(again.headers.get("etag")).toBe(reference.headers.get("etag"));
    expect((await bytesOf(again)).equals(referenceBytes)).toBe(true);
  });
});
