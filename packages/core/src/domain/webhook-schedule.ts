/**
 * When failed webhook deliveries are tried again. Like Svix: at once, then after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h (about 27.6 hours in all); after the last, the delivery is
 * marked failed. Each wait gets up to ±10% jitter so retries from a burst spread out.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

export const RETRY_JITTER = 0.1;

/**
 * The time of the next attempt after `attemptsMade` failed attempts, or null when the
 * schedule is exhausted. `random` is in [0, 1) (Math.random by default; tests pass a fixed one).
 */
export function nextAttemptAt(
  attemptsMade: number,
  failedAt: Date,
  schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS,
  random: () => number = Math.random,
): Date | null {
  const wait = schedule[attemptsMade - 1];
  if (wait === undefined) return null;
  const jitter = wait * RETRY_JITTER * (2 * random() - 1);
  return new Date(failedAt.getTime() + Math.round(wait + jitter));
}
