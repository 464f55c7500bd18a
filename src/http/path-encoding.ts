/** Whether a URL path is valid percent-encoding (UTF-8); a path that is not is a 400, never a 500. */
export function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
