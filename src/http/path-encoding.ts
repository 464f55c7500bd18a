import { ValidationError } from "../shared/errors.ts";

/** Whether a URL path is valid percent-encoding (UTF-8); a path that is not is a 400, never a 500. */
export function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Refuses (400, the spec's error body through the plugin guard) a path that cannot be decoded. */
export function assertDecodablePath(path: string): void {
  if (!isDecodable(path)) throw new ValidationError("The path is not valid percent-encoding (UTF-8).");
}
