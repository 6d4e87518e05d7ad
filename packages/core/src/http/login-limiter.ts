/**
 * Slows password guessing: at most `max` failed logins per email and per client address in a
 * window. It lives in process memory on purpose: it is a brake, not a correctness guarantee,
 * and each API process brakes on its own.
 */
export function createLoginLimiter(options: { max?: number; windowMs?: number } = {}) {
  const max = options.max ?? 10;
  const windowMs = options.windowMs ?? 15 * 60 * 1000;
  const failures = new Map<string, { count: number; resetAt: number }>();

  function sweep(now: number) {
    if (failures.size < 10_000) return;
    for (const [key, entry] of failures) if (entry.resetAt <= now) failures.delete(key);
  }

  return {
    /** Seconds to wait before another attempt, or 0 when allowed. */
    retryAfter(keys: string[], now: number): number {
      let wait = 0;
      for (const key of keys) {
        const entry = failures.get(key);
        if (entry && entry.resetAt > now && entry.count >= max) wait = Math.max(wait, entry.resetAt - now);
      }
      return Math.ceil(wait / 1000);
    },
    fail(keys: string[], now: number): void {
      sweep(now);
      for (const key of keys) {
        const entry = failures.get(key);
        if (!entry || entry.resetAt <= now) failures.set(key, { count: 1, resetAt: now + windowMs });
        else entry.count += 1;
      }
    },
    succeed(keys: string[]): void {
      for (const key of keys) failures.delete(key);
    },
  };
}
