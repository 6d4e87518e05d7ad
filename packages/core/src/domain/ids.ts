import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Time-ordered ids (a ULID body behind a type prefix, e.g. `cus_01J...`): ids of one kind
 * sort by creation time, which is what cursor pagination ("newest first") relies on.
 * Monotonic within a process: two ids made in the same millisecond still sort in order.
 */
export function ulidFactory(now: () => number = Date.now): () => string {
  let lastTime = -1;
  let lastRandom: Uint8Array = new Uint8Array(10);
  return () => {
    const time = now();
    if (time <= lastTime) {
      lastRandom = increment(lastRandom);
    } else {
      lastTime = time;
      lastRandom = new Uint8Array(randomBytes(10));
    }
    return encodeTime(Math.max(time, lastTime)) + encodeRandom(lastRandom);
  };
}

function increment(bytes: Uint8Array): Uint8Array {
  const next = new Uint8Array(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 255) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}

function encodeTime(time: number): string {
  let out = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}
