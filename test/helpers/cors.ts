import type { TestApp } from "./app.ts";

/** An answer as a browser's CORS check sees it. */
export type CorsAnswer = {
  status: number;
  allowOrigin: string | null;
  allowCredentials: string | null;
  body: string;
};

/** Requests `path` (in process) from a page of `origin` and reads the answer's CORS headers. */
export async function fromOrigin(
  t: TestApp,
  origin: string,
  path: string,
  init: RequestInit = {},
): Promise<CorsAnswer> {
  const res = await t.app.fetch(`http://vexil.test${path}`, {
    ...init,
    headers: { origin, ...(init.headers as Record<string, string> | undefined) },
  });
  return {
    status: res.status,
    allowOrigin: res.headers.get("access-control-allow-origin"),
    allowCredentials: res.headers.get("access-control-allow-credentials"),
    body: await res.text(),
  };
}

/** The preflight a browser on `origin` sends before a `method` request to `path` with `headers`. */
export function preflight(t: TestApp, origin: string, path: string, method: string, headers: string[] = []) {
  return fromOrigin(t, origin, path, {
    method: "OPTIONS",
    headers: {
      "access-control-request-method": method,
      ...(headers.length > 0 ? { "access-control-request-headers": headers.join(",") } : {}),
    },
  });
}
