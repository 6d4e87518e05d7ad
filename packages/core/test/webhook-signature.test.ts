import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../src/domain/webhook-signature.js';

/** An independent HMAC-SHA256 (WebCrypto), so the test does not trust the code under test. */
async function referenceHmac(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await webcrypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const sig = await webcrypto.subtle.sign('HMAC', key, enc.encode(message));
  return Buffer.from(sig).toString('hex');
}

describe('webhook signatures', () => {
  const secret = 'whsec_test_secret_value';
  const body = '{"b":1,  "a":"ünïcødé","n":12345678901234567890}';

  it('signs timestamp + "." + raw body as lowercase hex HMAC-SHA256', async () => {
    const ts = 1_700_000_000_000;
    expect(signWebhook(secret, ts, body)).toBe(await referenceHmac(secret, `${ts}.${body}`));
    expect(signWebhook(secret, ts, Buffer.from(body))).toBe(await referenceHmac(secret, `${ts}.${body}`));
  });

  it('verifies a valid delivery and rejects tampering, skew and junk', async () => {
    const now = 1_700_000_000_000;
    const ts = String(now - 60_000);
    const signature = await referenceHmac(secret, `${ts}.${body}`);
    const ok = verifyWebhookSignature({ rawBody: body, timestamp: ts, signature, secret, now });
    expect(ok).toEqual({ ok: true });

    const reason = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      (
        verifyWebhookSignature({ rawBody: body, timestamp: ts, signature, secret, now, ...over }) as {
          reason?: string;
        }
      ).reason;
    expect(reason({ rawBody: `${body} ` })).toBe('invalid_signature');
    expect(reason({ secret: 'other' })).toBe('invalid_signature');
    expect(reason({ signature: signature.toUpperCase() })).toBe('invalid_signature');
    expect(reason({ signature: '' })).toBe('missing_signature');
    expect(reason({ timestamp: 'abc' })).toBe('invalid_timestamp');
    expect(reason({ timestamp: 'Infinity' })).toBe('invalid_timestamp');
    expect(reason({ timestamp: undefined })).toBe('missing_timestamp');
    expect(reason({ now: now + 5 * 60_000 })).toBe('timestamp_out_of_tolerance');
    expect(reason({ now: now - 4 * 60_000 })).toBeUndefined();
  });
});
