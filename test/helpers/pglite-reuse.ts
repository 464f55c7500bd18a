import type { PGlite } from "@electric-sql/pglite";

/*
 * A worker's PGlite databases, used again by later test files instead of opening new ones.
 * Opening a PGlite costs ~0.28 s of CPU (its WebAssembly memory, PostgreSQL's start, the
 * template's files); putting one back in the template's state costs a fraction of that: every
 * table emptied and refilled with the template's rows, every sequence set back, the session
 * reset (its prepared statements kept). A file gets its database behind a revocable proxy, so
 * anything of its app still running after `close` fails instead of reaching the next file's data.
 */

/**
 * What puts a database back in the state of the template it was copied from: its tables, and
 * the statements that refill the template's rows and set its sequences back.
 */
type Restore = { tables: string[]; refill: string };

/** A table larger than this is truncated (new files) rather than deleted from (dead rows). */
const TRUNCATE_ABOVE_BYTES = 32 * 8192;

/**
 * DISCARD ALL, but for the statements the client prepared (DEALLOCATE ALL, DISCARD PLANS): the
 * next file's client runs them again, parsed and planned already (createTestDatabase). Those a
 * file PREPAREd itself go.
 */
const SESSION_RESET = `
  CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; UNLISTEN *;
  SELECT pg_advisory_unlock_all(); DISCARD TEMP; DISCARD SEQUENCES;
  DO $$ DECLARE s record; BEGIN
    FOR s IN SELECT name FROM pg_prepared_statements WHERE from_sql LOOP
      EXECUTE format('DEALLOCATE %I', s.name);
    END LOOP;
  END $$`;

/** Databases waiting for their next file, by template. */
const idle = new Map<string, PGlite[]>();
/** Read once per template, from its first copy: every copy starts with the same rows. */
const restores = new Map<string, Promise<Restore>>();
/** Beyond this many idle databases of one template (a file opened several), the oldest is closed. */
const MAX_IDLE = 2;

/** How many databases this worker opened, and how many it restored for another file. */
export const reuse = { opened: 0, restored: 0 };

/** A database in the state of `template`: an idle one, or a new one from `open`. */
export async function takePglite(template: string, open: () => Promise<PGlite>): Promise<PGlite> {
  const waiting = idle.get(template)?.pop();
  if (waiting) return waiting;
  const pglite = await open();
  reuse.opened += 1;
  if (!restores.has(template)) restores.set(template, captureRestore(pglite));
  await restores.get(template);
  return pglite;
}

/**
 * Gives `pglite` back for the next file of `template`: restored to the template's state, or
 * closed when that fails (a file that broke its database).
 */
export async function givePgliteBack(template: string, pglite: PGlite): Promise<void> {
  const waiting = idle.get(template) ?? [];
  idle.set(template, waiting);
  const restore = restores.get(template);
  if (!restore || pglite.closed) return closeForGood(pglite);
  try {
    // A file may have left a transaction open; the reset below runs outside one.
    await pglite.exec("ROLLBACK");
    await pglite.exec(SESSION_RESET);
    const { tables, refill } = await restore;
    const { empty, deletedFrom } = await emptying(pglite, tables);
    await pglite.exec(empty);
    await pglite.exec(refill);
    // Without it, the template's tables grow by their dead rows at every restore, and every
    // request's permission reads slow down file after file.
    if (deletedFrom.length) await pglite.exec(`VACUUM ${deletedFrom.join(", ")}`);
    waiting.push(pglite);
    reuse.restored += 1;
    if (waiting.length > MAX_IDLE) await closeForGood(waiting.shift() as PGlite);
  } catch {
    await closeForGood(pglite);
  }
}

async function closeForGood(pglite: PGlite): Promise<void> {
  if (!pglite.closed) await pglite.close();
}

/**
 * A proxy of `pglite` for one file: `revoke` ends its use (every later access throws), before
 * the database goes back.
 */
export function leasedPglite(pglite: PGlite): { pglite: PGlite; revoke(): void } {
  const { proxy, revoke } = Proxy.revocable(pglite, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { pglite: proxy, revoke };
}

/**
 * What empties the tables that may have rows: those with pages. TRUNCATE makes new files for a
 * table and its indexes (~2 ms each in PGlite), so only large tables are truncated, with
 * CASCADE (their referencing tables are emptied anyway); the rest are deleted from, with
 * triggers (foreign keys among them) off, in any order, and vacuumed afterwards (~0.6 ms each).
 */
async function emptying(pglite: PGlite, tables: string[]): Promise<{ empty: string; deletedFrom: string[] }> {
  const sizes = await pglite.query<{ name: string; bytes: number }>(
    "SELECT name, pg_relation_size(name::regclass)::int AS bytes FROM unnest($1::text[]) AS name",
    [tables],
  );
  const large = sizes.rows.filter((t) => t.bytes > TRUNCATE_ABOVE_BYTES).map((t) => t.name);
  const small = sizes.rows.filter((t) => t.bytes > 0 && t.bytes <= TRUNCATE_ABOVE_BYTES).map((t) => t.name);
  const empty = [
    ...(large.length ? [`TRUNCATE ${large.join(", ")} CASCADE`] : []),
    "SET session_replication_role = replica",
    ...small.map((t) => `DELETE FROM ${t}`),
    "SET session_replication_role = DEFAULT",
  ].join(";\n");
  return { empty, deletedFrom: small };
}

/**
 * The template's tables, and the statements that refill the rows they have now and set the
 * sequences back. `_prisma_migrations` too: a file that leaves a failed or extra migration row
 * (test/db/migrations.test.ts) must not hand it to the next user of the database.
 */
async function captureRestore(pglite: PGlite): Promise<Restore> {
  const tables = await pglite.query<{ name: string; columns: string[] }>(
    `SELECT quote_ident(c.relname) AS name,
            array_agg(quote_ident(a.attname) ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = 'public' AND c.relkind = 'r'
      GROUP BY c.relname
      ORDER BY c.relname`,
  );
  // Triggers (foreign keys among them) stay off while the rows come back in any order.
  const statements = ["SET session_replication_role = replica"];
  for (const { name, columns } of tables.rows) {
    const rows = await pglite.query<{ json: string | null }>(
      `SELECT json_agg(t)::text AS json FROM ${name} t`,
    );
    const json = rows.rows[0]?.json;
    if (!json) continue;
    const list = columns.join(", ");
    statements.push(
      `INSERT INTO ${name} (${list}) OVERRIDING SYSTEM VALUE
       SELECT ${list} FROM json_populate_recordset(NULL::${name}, ${quoteLiteral(json)})`,
    );
  }
  statements.push("SET session_replication_role = DEFAULT");
  const sequences = await pglite.query<{ name: string; start: string; last: string | null }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name,
            start_value::text AS start, last_value::text AS last
       FROM pg_sequences WHERE schemaname = 'public'`,
  );
  for (const { name, start, last } of sequences.rows) {
    const [value, called] = last === null ? [start, false] : [last, true];
    statements.push(`SELECT setval(${quoteLiteral(name)}, ${value}, ${called})`);
  }
  return { tables: tables.rows.map((t) => t.name), refill: `${statements.join(";\n")};` };
}

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
