import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../src/domain/outbound-address.js';
import { DEFAULT_RETRY_SCHEDULE_MS, nextAttemptAt } from '../src/domain/webhook-schedule.js';

describe('retry schedule', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  it('follows the schedule, with jitter within ±10%', () => {
    expect(nextAttemptAt(1, t0, DEFAULT_RETRY_SCHEDULE_MS, () => 0.5)?.getTime()).toBe(t0.getTime() + 5_000);
    expect(nextAttemptAt(2, t0, DEFAULT_RETRY_SCHEDULE_MS, () => 0)?.getTime()).toBe(t0.getTime() + 270_000);
    expect(nextAttemptAt(2, t0, DEFAULT_RETRY_SCHEDULE_MS, () => 0.999_999)?.getTime()).toBe(
      t0.getTime() + 330_000,
    );
    expect(nextAttemptAt(7, t0, DEFAULT_RETRY_SCHEDULE_MS, () => 0.5)?.getTime()).toBe(
      t0.getTime() + 36_000_000,
    );
  });
  it('is exhausted after the eighth attempt', () => {
    expect(nextAttemptAt(8, t0)).toBeNull();
  });
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('%s is private', (a) => expect(isPrivateAddress(a)).toBe(true));
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (a) => expect(isPrivateAddress(a)).toBe(false),
  );
});
