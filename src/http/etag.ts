import { createHash } from "node:crypto";

/** A weak ETag of a body: equal bodies, equal tags, on every node. */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether `If-None-Match` names this ETag (weak comparison, lists and `*` included). */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}
