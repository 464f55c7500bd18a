import { type PGlite, protocol } from "@electric-sql/pglite";

// PGlite serves one PostgreSQL session; @electric-sql/pglite-socket hands it the frontend's
// messages one at a time. Two things then differ from a PostgreSQL server, and each one left the
// embedded database answering `42P05 prepared statement … already exists` to every statement
// until a restart (one NUL byte in an SDK report was enough):
// - After an error in an extended-query message (Parse, Bind, Describe, Execute, Close, Flush),
//   PGlite sends ReadyForQuery at once, and again for the Sync that follows. node-postgres ends
//   its current query on the first and its next query on the second: every answer after that
//   belongs to the statement before it (electric-sql/pglite#958, open).
// - A new connection gets the old session: its prepared statements, settings, LISTENs and
//   advisory locks. node-postgres on the new connection prepares the same names again.
// `servedSession` gives the socket server a PGlite that answers as PostgreSQL does.

const STARTUP = 0;
const SYNC = 0x53; // 'S'
const READY_FOR_QUERY = 0x5a; // 'Z'
/** Parse, Bind, Describe, Execute, Close, Flush: after an error in one, PostgreSQL skips to Sync. */
const EXTENDED_QUERY = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);
/** ReadyForQuery is 'Z', a length of 5, and the transaction status: always the last 6 bytes. */
const READY_FOR_QUERY_LENGTH = 6;

type RawStreamOptions = NonNullable<Parameters<PGlite["execProtocolRawStream"]>[1]>;

/**
 * The PGlite the socket server should use: messages and answers pass through unchanged, except
 * that a premature ReadyForQuery is dropped and what follows an extended-query error is skipped
 * until Sync (as PostgreSQL does), and each new connection starts on a reset session.
 */
export function servedSession(pglite: PGlite): PGlite {
  let skippingToSync = false;
  const execProtocolRawStream = async (message: Uint8Array, options: RawStreamOptions) => {
    const type = message[0];
    if (type === STARTUP) {
      skippingToSync = false;
      await resetSession(pglite);
      return pglite.execProtocolRawStream(message, options);
    }
    if (type === SYNC) skippingToSync = false;
    if (!EXTENDED_QUERY.has(type as number)) return pglite.execProtocolRawStream(message, options);
    if (skippingToSync) return;
    const answer = withoutTrailingReady(options.onRawData);
    await pglite.execProtocolRawStream(message, { ...options, onRawData: answer.write });
    // PGlite ends an extended-query message's answer with ReadyForQuery only after an error.
    if (answer.end()) skippingToSync = true;
  };
  return new Proxy(pglite, {
    get(target, property) {
      if (property === "execProtocolRawStream") return execProtocolRawStream;
      const value = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run with the PGlite itself as `this`.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Forwards an answer to `send`, holding back its last 6 bytes; `end` forwards them unless they
 * are a ReadyForQuery message, and says whether they were.
 */
function withoutTrailingReady(send: RawStreamOptions["onRawData"]) {
  let held: Uint8Array = new Uint8Array(0);
  return {
    write(data: Uint8Array) {
      const all = held.length === 0 ? data : concat(held, data);
      const cut = Math.max(0, all.length - READY_FOR_QUERY_LENGTH);
      if (cut > 0) send(all.subarray(0, cut));
      // PGlite reuses its output buffer: keep a copy.
      held = all.slice(cut);
    },
    end(): boolean {
      const isReady =
        held.length === READY_FOR_QUERY_LENGTH &&
        held[0] === READY_FOR_QUERY &&
        held[1] === 0 &&
        held[2] === 0 &&
        held[3] === 0 &&
        held[4] === 5;
      if (!isReady && held.length > 0) send(held);
      return isReady;
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * What a new PostgreSQL session would not have: an open transaction, prepared statements,
 * settings, LISTENs, advisory locks. DISCARD ALL cannot run inside a transaction, so the
 * ROLLBACK goes first, as its own message (a ROLLBACK outside a transaction only warns).
 */
async function resetSession(pglite: PGlite): Promise<void> {
  const ignore = () => undefined;
  for (const sql of ["ROLLBACK", "DISCARD ALL"]) {
    await pglite.execProtocolRawStream(protocol.serialize.query(sql), { onRawData: ignore });
  }
}
