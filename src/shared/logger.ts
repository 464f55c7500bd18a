import { pino } from "pino";

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

export function createLogger(
  level: Level,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const log = pino(
    {
      level,
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, censor: "[redacted]" },
    },
    { write },
  );
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
  };
}
