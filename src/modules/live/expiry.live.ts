/** The longest delay setTimeout keeps (about 24.8 days); a later expiry is checked again then. */
const MAX_TIMER_MS = 2_147_483_647;
const noTimer = () => {};

/**
 * Calls `expire` once the clock `now` reaches `expiresAt` (nothing when null or absent): a timer,
 * so an idle stream does not outlive its credential. Returns the canceller.
 */
export function onExpiry(
  now: () => Date,
  expiresAt: Date | null | undefined,
  expire: () => void,
): () => void {
  if (!expiresAt) return noTimer;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = expiresAt.getTime() - now().getTime();
    timer = setTimeout(
      () => (now() >= expiresAt ? expire() : arm()),
      Math.min(Math.max(left, 0), MAX_TIMER_MS),
    );
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}
