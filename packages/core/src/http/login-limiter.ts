/**
 * Slows password guessing: at most `perEmail` failed logins per email and `perAddress` per
 * client address in a window. The address is the socket's peer, never a header a caller can
 * forge. It lives in process memory on purpose: a brake, not a correctness guarantee, and
 * each API process brakes on its own.
 */
export function createLoginLimiter(
  options: { perEmail?: number; perAddress?: number; windowMs?: number } = {},
) {
  const perEmail = options.perEmail ?? 10;
  const perAddress = options.perAddress ?? 100;
  const windowMs = options.windowMs ?? 15 * 60 * 1000;
  const failures = new Map<string, { count: number; resetAt: number }>();

  const keysOf = (email: string, address: string | undefined) => [
    { key: `email:${email}`, max: perEmail },
    ...(address ? [{ key: `address:${address}`, max: perAddress }] : []),
  ];

  function sweep(now: number) {
    if (failures.size < 10_000) return;
    for (const [key, entry] of failures) if (entry.resetAt <= now) failures.delete(key);
  }

  return {
    /** Seconds to wait before another attempt, or 0 when allowed. */
    retryAfter(email: string, address: string | undefined, now: number): number {
      let wait = 0;
      for (const { key, max } of keysOf(email, address)) {
        const entry = failures.get(key);
        if (entry && entry.resetAt > now && entry.count >= max) wait = Math.max(wait, entry.resetAt - now);
      }
      return Math.ceil(wait / 1000);
    },
    fail(email: string, address: string | undefined, now: number): void {
      sweep(now);
      for (const { key } of keysOf(email, address)) {
        const entry = failures.get(key);
        if (!entry || entry.resetAt <= now) failures.set(key, { count: 1, resetAt: now + windowMs });
        else entry.count += 1;
      }
    },
    /** A correct password clears the email's count; the address keeps its count. */
    succeed(email: string): void {
      failures.delete(`email:${email}`);
    },
  };
}
