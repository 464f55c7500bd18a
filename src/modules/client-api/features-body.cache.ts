import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { etagOf } from "../../http/etag.ts";
import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import { answerOf, type FeaturesQuery, type PreparedBody } from "./features-body.logic.ts";

/*
 * Prebuilt client-features answers, kept per snapshot of the configuration: the JSON once,
 * each compression once, when first asked for.
 */

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Distinct filter combinations kept per snapshot (SDKs of one scope usually ask the same). */
const MAX_QUERIES = 32;
const prepared = new WeakMap<ClientSnapshot, Map<string, PreparedBody>>();

/**
 * The client-features answer of a snapshot for one filter, built once per snapshot and filter
 * (so once per configuration change), with its ETag; compressions are made on first request.
 */
export function featuresBody(snapshot: ClientSnapshot, query: FeaturesQuery): PreparedBody {
  let byQuery = prepared.get(snapshot);
  if (!byQuery) {
    byQuery = new Map();
    prepared.set(snapshot, byQuery);
  }
  const key = JSON.stringify(query);
  let body = byQuery.get(key);
  if (!body) {
    if (byQuery.size >= MAX_QUERIES) byQuery.delete(byQuery.keys().next().value as string);
    body = prepare(answerOf(snapshot, query));
    byQuery.set(key, body);
  }
  return body;
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
