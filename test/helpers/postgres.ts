/** URL of the same server, another database. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The maintenance connection used to create and drop per-test databases. */
export function adminDatabaseUrl(url: string): string {
  return url;
}
