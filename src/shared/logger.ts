/** Minimal structured logger (JSON lines on stderr); levels from LOG_LEVEL. */
export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
};

const ORDER = ["debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof ORDER)[number];

export function createLogger(
  level: Level,
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const min = ORDER.indexOf(level);
  const log = (lvl: Exclude<Level, "silent">) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER.indexOf(lvl) < min) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}
