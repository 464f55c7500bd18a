/** Reads the credential from an `Authorization` value, accepting an optional `Bearer ` prefix. */
export function tokenFromHeader(header: string | null | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  return value.replace(/^Bearer\s+/i, "").trim() || null;
}
