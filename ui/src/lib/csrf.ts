/** The session's CSRF token: the server sets it in a readable cookie at login. */
export function csrfToken(): string | null {
  const match = document.cookie.match(/(?:^|;\s*)vexil-csrf=([^;]*)/);
  return match ? decodeURIComponent(match[1] ?? "") : null;
}
