import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { LRUCache } from "lru-cache";
import { etagOf } from "../../http/etag.ts";
import type { BodyEncoding, PreparedBody } from "../../http/prepared-body.ts";
import type { ClientSnapshot } from "./client-features.cache.ts";

/** What the documents cache holds and has done, for /metrics and tests. */
export type SdkDocumentStats = {
  /** Documents and compressed forms kept, and their bytes. */
  entries: number;
  bytes: number;
  maxBytes: number;
  /** Documents serialised (each once per version of its scope, kind and key while kept). */
  serialised: number;
  /** Compressions made, per encoding (each once per document while kept). */
  compressed: Record<BodyEncoding, number>;
};

/**
 * The app's SDK answers, prepared once per version of a scope's configuration
 * (ClientSnapshot.version): client-features documents per filter, frontend and OFREP bulk
 * answers per context. Each is serialised and tagged once, and compressed once per encoding
 * when first asked for; a 304 touches none of it. Everything is keyed by the version, so the
 * polling API, the frontend API, OFREP and the streams move to a new version together.
 */
export type SdkDocuments = {
  /**
   * The document of `kind` for `key` (a filter, a context) of the snapshot's version; `build`
   * gives its JSON value when it is not kept.
   */
  of(snapshot: ClientSnapshot, kind: string, key: string, build: () => unknown): PreparedBody;
  stats(): SdkDocumentStats;
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const COMPRESS: Record<BodyEncoding, (json: Buffer) => Promise<Buffer>> = {
  br: (json) => brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (json) => gzipped(json, { level: 6 }),
};
/** What a kept entry costs besides its bytes (key, ETag, bookkeeping). */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Bounded by `maxBytes` in all, whatever the number of scopes, filters and contexts callers
 * make up (a public frontend token can send a new context with every request): the least
 * recently used document or compressed form goes first; one larger than the bound is kept alone.
 * When a scope moves to a new version, what was kept for its older version is dropped.
 */
export function createSdkDocuments(maxBytes: number): SdkDocuments {
  /** A document or a compressed form, with the scope and version it belongs to. */
  type Kept = { scope: string; version: string } & (
    | { document: PreparedBody; bytes?: undefined }
    | { bytes: Buffer; document?: undefined }
  );
  const kept = new LRUCache<string, Kept>({
    maxSize: maxBytes,
    sizeCalculation: (entry) =>
      Math.min(maxBytes, (entry.bytes ?? entry.document.json).length + ENTRY_OVERHEAD_BYTES),
    dispose: (entry, key) => forget(entry, key),
  });
  /** The keys kept per scope and version, to drop a version's entries at once. */
  const keysOf = new Map<string, Set<string>>();
  /** The newest version asked for per scope (and its generation), among scopes with entries kept. */
  const newest = new Map<string, { version: string; generation: number }>();
  const compressing = new Map<string, Promise<Buffer>>();
  let serialised = 0;
  const compressed: Record<BodyEncoding, number> = { br: 0, gzip: 0 };
  const versionKey = (scope: string, version: string) => `${scope}\u0001${version}`;

  function forget({ scope, version }: Kept, key: string) {
    const keys = keysOf.get(versionKey(scope, version));
    if (!keys) return;
    keys.delete(key);
    if (keys.size > 0) return;
    keysOf.delete(versionKey(scope, version));
    if (newest.get(scope)?.version === version) newest.delete(scope);
  }

  function keep(
    snapshot: ClientSnapshot,
    key: string,
    value: { document: PreparedBody } | { bytes: Buffer },
  ) {
    const entry: Kept = { scope: snapshot.scopeKey, version: snapshot.version, ...value };
    const at = versionKey(entry.scope, entry.version);
    let keys = keysOf.get(at);
    if (!keys) {
      keys = new Set();
      keysOf.set(at, keys);
    }
    keys.add(key);
    kept.set(key, entry);
  }

  /** Drops what was kept for a scope's older version once a newer one is asked for. */
  function moveTo(snapshot: ClientSnapshot) {
    const now = newest.get(snapshot.scopeKey);
    if (now?.version === snapshot.version || (now && now.generation > snapshot.generation)) return;
    newest.set(snapshot.scopeKey, { version: snapshot.version, generation: snapshot.generation });
    if (!now) return;
    for (const key of [...(keysOf.get(versionKey(snapshot.scopeKey, now.version)) ?? [])]) kept.delete(key);
  }

  function prepared(snapshot: ClientSnapshot, key: string, json: Buffer): PreparedBody {
    return {
      json,
      etag: etagOf(json),
      encoded(encoding) {
        const at = `${key}\u0002${encoding}`;
        const done = kept.get(at)?.bytes;
        if (done) return Promise.resolve(done);
        let under = compressing.get(at);
        if (!under) {
          compressed[encoding]++;
          under = COMPRESS[encoding](json).finally(() => compressing.delete(at));
          compressing.set(at, under);
          // Kept only while its document is: not for a version dropped meanwhile.
          under.then((bytes) => kept.has(key) && keep(snapshot, at, { bytes })).catch(() => undefined);
        }
        return under;
      },
    };
  }

  return {
    of(snapshot, kind, key, build) {
      const at = `${snapshot.scopeKey}\u0001${snapshot.version}\u0001${kind}\u0001${key}`;
      const found = kept.get(at)?.document;
      if (found) return found;
      moveTo(snapshot);
      serialised++;
      const document = prepared(snapshot, at, Buffer.from(JSON.stringify(build())));
      keep(snapshot, at, { document });
      return document;
    },
    stats: () => ({
      entries: kept.size,
      bytes: kept.calculatedSize,
      maxBytes,
      serialised,
      compressed: { ...compressed },
    }),
  };
}
