import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { LRUCache } from "lru-cache";
import { etagOf } from "../../http/etag.ts";
import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import { answerOf, type FeaturesQuery, type PreparedBody } from "./features-body.logic.ts";

/**
 * The app's prebuilt client-features answers, kept per snapshot of the configuration (and
 * forgotten with it): the JSON once, each compression once, when first asked for. Of one
 * snapshot's filter combinations, the least recently asked goes first.
 */
export type FeatureBodies = {
  /**
   * The client-features answer of a snapshot for one filter, built once per snapshot and filter
   * (so once per configuration change), with its ETag.
   */
  of(snapshot: ClientSnapshot, query: FeaturesQuery): PreparedBody;
};

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Distinct filter combinations kept per snapshot (SDKs of one scope usually ask the same). */
const MAX_QUERIES = 32;

export function createFeatureBodies(): FeatureBodies {
  const prepared = new WeakMap<ClientSnapshot, LRUCache<string, PreparedBody>>();
  return {
    of(snapshot, query) {
      let byQuery = prepared.get(snapshot);
      if (!byQuery) {
        byQuery = new LRUCache({ max: MAX_QUERIES });
        prepared.set(snapshot, byQuery);
      }
      const key = JSON.stringify(query);
      let body = byQuery.get(key);
      if (!body) {
        body = prepare(answerOf(snapshot, query));
        byQuery.set(key, body);
      }
      return body;
    },
  };
}

function prepare(answer: unknown): PreparedBody {
  const json = Buffer.from(JSON.stringify(answer));
  const etag = etagOf(json);
  const encodings = new Map<string, Promise<Buffer>>();
  return {
    json,
    etag,
    encoded(encoding) {
      let done = encodings.get(encoding);
      if (!done) {
        done =
          encoding === "br"
            ? brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
            : gzipped(json, { level: 6 });
        encodings.set(encoding, done);
      }
      return done;
    },
  };
}
