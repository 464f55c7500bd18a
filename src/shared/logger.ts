import { createRequire } from "node:module";
import { type DestinationStream, pino } from "pino";

/** Structured logger (pino, JSON lines on stderr); levels from LOG_LEVEL. */
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

type Level = "debug" | "info" | "warn" | "error" | "silent";

/**
 * Fields that may carry a credential, wherever they appear in a log line: they are written
 * as "[redacted]" (pino's redaction, compiled once).
 */
const REDACTED = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "token",
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.secret",
  "*.token",
  "headers.authorization",
  "headers.cookie",
  "headers['x-api-key']",
];

/**
 * Without `write`, lines go to stderr asynchronously (pino's SonicBoom on fd 2): Node writes to
 * a pipe synchronously, so a slow reader of the pipe (a log shipper, a busy parent process)
 * would stall the event loop on every access line. Lines logged while a write is in flight are
 * sent together; what is pending when the process exits is flushed synchronously (pino's exit
 * hook).
 */
export function createLogger(
  level: Level,
  output: "json" | "pretty" | ((line: string) => void) = "json",
): Logger {
  const destination =
    typeof output === "function"
      ? { write: output }
      : output === "pretty"
        ? prettyStream()
        : pino.destination({ dest: 2, sync: false });
  const log = pino(
    {
      level,
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, censor: "[redacted]" },
    },
    destination,
  );
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
  };
}

/** pino-pretty's stream on stderr, loaded only when asked for (LOG_FORMAT=pretty). */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)("pino-pretty") as (options: object) => DestinationStream;
  return pretty({ destination: 2, sync: false, colorize: process.stderr.isTTY, ignore: "pid,hostname" });
}
