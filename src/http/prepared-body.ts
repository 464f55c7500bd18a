import { matchesEtag } from "./etag.ts";
import type { RouteRequest } from "./route-table.ts";

export type BodyEncoding = "br" | "gzip";

/**
 * A JSON answer built before it is asked for (an SDK document): its bytes, its ETag, and each
 * compression, made once by its owner (client-features/sdk-documents.cache.ts).
 */
export type PreparedBody = {
  json: Buffer;
  etag: string;
  encoded(encoding: BodyEncoding): Promise<Buffer>;
};

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A prepared body as the request asks for it: 304 when If-None-Match names its ETag (no body
 * touched), else the bytes, compressed when Accept-Encoding takes brotli or gzip. No
 * serialisation, hashing or compression happens here, and the bytes are not copied: the answer
 * is the HTTP adapter's Response, which writes a Buffer to the socket as it is.
 */
export async function sendPrepared(
  { request, Response }: Pick<RouteRequest, "request" | "Response">,
  body: PreparedBody,
  headers: Record<string, string> = {},
): Promise<Response> {
  const answer: Record<string, string> = { ...headers, etag: body.etag, vary: "accept-encoding" };
  if (matchesEtag(request.headers.get("if-none-match"), body.etag)) {
    return new Response(null, { status: 304, headers: answer });
  }
  answer["content-type"] = "application/json; charset=utf-8";
  const encoding =
    body.json.length < COMPRESS_FROM_BYTES ? null : preferredEncoding(request.headers.get("accept-encoding"));
  if (!encoding) return new Response(asBody(body.json), { headers: answer });
  answer["content-encoding"] = encoding;
  return new Response(asBody(await body.encoded(encoding)), { headers: answer });
}

/** A Buffer as a body: its memory is an ArrayBuffer (never shared), as BodyInit wants. */
function asBody(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return buffer as Uint8Array<ArrayBuffer>;
}

/** The best encoding an Accept-Encoding header takes: brotli, then gzip, else none. */
export function preferredEncoding(header: string | null): BodyEncoding | null {
  if (!header) return null;
  let gzip = false;
  for (const part of header.split(",")) {
    const [name = "", q] = part.split(";");
    if (q && /^\s*q=0(\.0*)?\s*$/.test(q)) continue;
    const coding = name.trim().toLowerCase();
    if (coding === "br") return "br";
    if (coding === "gzip") gzip = true;
  }
  return gzip ? "gzip" : null;
}
