import type { Logger } from "../shared/logger.ts";

/**
 * Runs `task` every `intervalMs`, never two runs at once in this process, logging failures
 * instead of crashing. Returns the stop function. The timer does not keep the process alive.
 */
export function startPeriodic(
  name: string,
  intervalMs: number,
  logger: Logger,
  task: () => Promise<unknown>,
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch((error) => logger.error(`${name} failed`, { error: String(error) }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
