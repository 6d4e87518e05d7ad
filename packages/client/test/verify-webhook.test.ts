import { verifyWebhook } from '@meter/client';
import { signWebhook } from '@meter/core';
import { describe, expect, it } from 'vitest';
import { hmacHex, NOW, SECRET, signedHeaders, usageCharged } from './support.js';

const FIVE_MIN = 5 * 60 * 1000;

describe('verifyWebhook', () => {
  it('accepts a delivery signed as SPEC.md says, and returns the parsed event', () => {
    const body = usageCharged();
    const result = verifyWebhook({ rawBody: body, headers: signedHeaders(body), secret: SECRET, now: NOW });
    expect(result).toEqual({
      ok: true,
      event: JSON.parse(body),
      deliveryId: 'whd_01JD0000000000000000000001',
      eventType: 'usage.charged',
      timestamp: NOW,
    });
  });

  it('takes the delivery id from the signed body, and refuses a header that disagrees', () => {
    const body = usageCharged({ deliveryId: 'whd_signed' });
    const fromBody = verifyWebhook({
      rawBody: body,
      headers: signedHeaders(body, { deliveryId: 'whd_signed' }),
      secret: SECRET,
      now: NOW,
    });
    expect(fromBody).toMatchObject({ ok: true, deliveryId: 'whd_signed' });
    const { 'x-meter-delivery': _, ...noHeader } = signedHeaders(body);
    expect(verifyWebhook({ rawBody: body, headers: noHeader, secret: SECRET, now: NOW })).toMatchObject({
      ok: true,
      deliveryId: 'whd_signed',
    });
    // A captured request re-sent under another delivery id is not a new delivery.
    const replayed = verifyWebhook({
      rawBody: body,
      headers: signedHeaders(body, { deliveryId: 'whd_forged' }),
      secret: SECRET,
      now: NOW,
    });
    expect(replayed).toMatchObject({ ok: false, reason: 'delivery_id_mismatch' });
  });

  it('matches fixed vectors computed outside Node (openssl dgst -sha256 -hmac)', () => {
    const vectors = [
      {
        body: '{"id":"use_01","type":"usage.charged","amount":"0.025"}',
        signature: '875ce0be6ec1183f662f71229d32419df1ffb57d9d1ef0f384d2804ecd964cae',
      },
      {
        body: '{"customer":"café ☕ 𝄞","type":"usage.charged"}',
        signature: 'd15ba443778743124f1e9adad78c0cc6179cbe36268c009ca3a2012794138d74',
      },
    ];
    for (const { body, signature } of vectors) {
      expect(hmacHex(SECRET, NOW, body)).toBe(signature);
      const headers = { ...signedHeaders(body), 'x-meter-signature': signature };
      for (const rawBody of [body, Buffer.from(body, 'utf8')]) {
        expect(verifyWebhook({ rawBody, headers, secret: SECRET, now: NOW }).ok).toBe(true);
      }
    }
  });

  it("accepts what the sender's signWebhook produces", () => {
    const body = usageCharged({ quantity: 7 });
    const headers = { ...signedHeaders(body), 'x-meter-signature': signWebhook(SECRET, NOW, body) };
    expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW }).ok).toBe(true);
  });

  describe('timestamp tolerance', () => {
    const body = usageCharged();
    const check = (now: number, toleranceMs?: number) =>
      verifyWebhook({ rawBody: body, headers: signedHeaders(body), secret: SECRET, now, toleranceMs });

    it('accepts up to exactly 5 minutes either way, and refuses 1 ms more', () => {
      expect(check(NOW + FIVE_MIN).ok).toBe(true);
      expect(check(NOW - FIVE_MIN).ok).toBe(true);
      expect(check(NOW + FIVE_MIN + 1)).toMatchObject({ ok: false, reason: 'timestamp_out_of_tolerance' });
      expect(check(NOW - FIVE_MIN - 1)).toMatchObject({ ok: false, reason: 'timestamp_out_of_tolerance' });
    });

    it('takes a custom tolerance, and a Date for now', () => {
      expect(check(NOW + 1000, 1000).ok).toBe(true);
      expect(check(NOW + 1001, 1000)).toMatchObject({ reason: 'timestamp_out_of_tolerance' });
      expect(
        verifyWebhook({ rawBody: body, headers: signedHeaders(body), secret: SECRET, now: new Date(NOW) }).ok,
      ).toBe(true);
    });

    it('explains a stale timestamp in its message', () => {
      const result = check(NOW + 10 * 60 * 1000);
      expect(result.ok || result.message).toMatch(/600 s from this server's clock; at most 300 s/);
    });

    it('refuses a missing or non-integer timestamp, even when the signature matches it', () => {
      for (const timestamp of ['abc', '1.5', '1e12', '-5', 'Infinity', 'NaN', ' 1795251563615', '0x1A']) {
        const headers = {
          ...signedHeaders(body),
          'x-meter-timestamp': timestamp,
          'x-meter-signature': hmacHex(SECRET, timestamp, body),
        };
        expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW }), timestamp).toMatchObject({
          ok: false,
          reason: 'invalid_timestamp',
        });
      }
      const { 'x-meter-timestamp': _, ...headers } = signedHeaders(body);
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
        reason: 'missing_timestamp',
      });
    });

    it('refuses a timestamp in seconds (it is 55 years off in milliseconds)', () => {
      const seconds = Math.floor(NOW / 1000);
      const headers = signedHeaders(body, { timestamp: seconds });
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
        reason: 'timestamp_out_of_tolerance',
      });
    });

    it('throws on a clock that is not a number, rather than accepting every timestamp', () => {
      expect(() => check(Number.NaN)).toThrow(RangeError);
      expect(() => check(NOW, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    });
  });

  describe('signature', () => {
    const body = usageCharged();

    it.each([
      ['a wrong secret', signedHeaders(body, { secret: 'whsec_some_other_secret_000' })],
      ['another timestamp than signed', { ...signedHeaders(body), 'x-meter-timestamp': String(NOW + 1) }],
      [
        'uppercase hex',
        { ...signedHeaders(body), 'x-meter-signature': hmacHex(SECRET, NOW, body).toUpperCase() },
      ],
      ['a prefix', { ...signedHeaders(body), 'x-meter-signature': `sha256=${hmacHex(SECRET, NOW, body)}` }],
      [
        'a truncated signature',
        { ...signedHeaders(body), 'x-meter-signature': hmacHex(SECRET, NOW, body).slice(2) },
      ],
      ['a doubled header', { ...signedHeaders(body), 'X-Meter-Signature': 'f'.repeat(64) }],
    ])('refuses %s', (_name, headers) => {
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
        ok: false,
        reason: 'invalid_signature',
        message: expect.stringMatching(/raw request body/),
      });
    });

    it('refuses a missing signature', () => {
      const { 'x-meter-signature': _, ...headers } = signedHeaders(body);
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
        reason: 'missing_signature',
      });
    });

    it('accepts any of several secrets, for a rotation', () => {
      const headers = signedHeaders(body, { secret: 'whsec_new_secret_0123456789' });
      const secret = [SECRET, 'whsec_new_secret_0123456789'];
      expect(verifyWebhook({ rawBody: body, headers, secret, now: NOW }).ok).toBe(true);
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW }).ok).toBe(false);
    });

    it('throws on an empty or missing secret instead of checking against it', () => {
      for (const secret of ['', [], [SECRET, ''], undefined as unknown as string]) {
        expect(() =>
          verifyWebhook({ rawBody: body, headers: signedHeaders(body), secret, now: NOW }),
        ).toThrow(/secret is empty or missing/);
      }
    });
  });

  describe('headers', () => {
    const body = usageCharged();
    const base = signedHeaders(body);

    it('reads header names in any case', () => {
      const cases = [
        (k: string) => k,
        (k: string) => k.toUpperCase(),
        (k: string) => k.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()),
      ];
      for (const rename of cases) {
        const headers = Object.fromEntries(Object.entries(base).map(([k, v]) => [rename(k), v]));
        expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW }).ok).toBe(true);
      }
    });

    it('reads a fetch Headers, and Node arrays of one value', () => {
      expect(verifyWebhook({ rawBody: body, headers: new Headers(base), secret: SECRET, now: NOW }).ok).toBe(
        true,
      );
      const arrays = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, [v]]));
      expect(verifyWebhook({ rawBody: body, headers: arrays, secret: SECRET, now: NOW }).ok).toBe(true);
    });

    it('takes the event type from the signed body and refuses a header that disagrees', () => {
      const { 'x-meter-event': _, ...noEvent } = base;
      expect(verifyWebhook({ rawBody: body, headers: noEvent, secret: SECRET, now: NOW })).toMatchObject({
        eventType: 'usage.charged',
      });
      const edited = { ...base, 'x-meter-event': 'balance.funded' };
      expect(verifyWebhook({ rawBody: body, headers: edited, secret: SECRET, now: NOW })).toMatchObject({
        ok: false,
        reason: 'event_type_mismatch',
      });
    });

    it('needs X-Meter-Delivery', () => {
      const { 'x-meter-delivery': _, ...headers } = base;
      expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
        reason: 'missing_delivery_id',
      });
    });
  });

  describe('body', () => {
    it('gives the same answer for a string, a Buffer, a Uint8Array and an ArrayBuffer', () => {
      const body = usageCharged();
      const bytes = new TextEncoder().encode(body);
      const headers = signedHeaders(body);
      for (const rawBody of [body, Buffer.from(body), bytes, bytes.buffer]) {
        expect(verifyWebhook({ rawBody, headers, secret: SECRET, now: NOW })).toMatchObject({
          ok: true,
          event: { amount: '0.025' },
        });
      }
    });

    it('verifies unicode bodies over their UTF-8 bytes', () => {
      const body = usageCharged({ customer: 'Zoë — 東京 🚀', metricKey: 'naïve\u0301' });
      const headers = signedHeaders(Buffer.from(body, 'utf8'));
      for (const rawBody of [body, Buffer.from(body, 'utf8')]) {
        expect(verifyWebhook({ rawBody, headers, secret: SECRET, now: NOW })).toMatchObject({
          ok: true,
          event: { customer: 'Zoë — 東京 🚀' },
        });
      }
      // The same text decoded with the wrong charset is other bytes.
      const latin1 = Buffer.from(body, 'utf8').toString('latin1');
      expect(verifyWebhook({ rawBody: latin1, headers, secret: SECRET, now: NOW })).toMatchObject({
        reason: 'invalid_signature',
      });
      // Unicode normalisation changes the bytes too.
      expect(
        verifyWebhook({ rawBody: body.normalize('NFC'), headers, secret: SECRET, now: NOW }),
      ).toMatchObject({ reason: 'invalid_signature' });
    });

    it('refuses a body that was parsed and serialised again, or altered in any byte', () => {
      const body = usageCharged();
      const headers = signedHeaders(body);
      for (const changed of [
        JSON.stringify(JSON.parse(body), null, 2),
        `${body}\n`,
        body.replace('0.025', '0.250'),
      ]) {
        expect(verifyWebhook({ rawBody: changed, headers, secret: SECRET, now: NOW })).toMatchObject({
          reason: 'invalid_signature',
        });
      }
    });

    it('throws a TypeError naming the fix when given a parsed body', () => {
      const body = usageCharged();
      const headers = signedHeaders(body);
      const call = (rawBody: unknown) => () =>
        verifyWebhook({ rawBody: rawBody as string, headers, secret: SECRET, now: NOW });
      expect(call(JSON.parse(body))).toThrow(TypeError);
      expect(call(JSON.parse(body))).toThrow(/not a parsed object.*express\.raw/);
      expect(call(undefined)).toThrow(/body was not read/);
      expect(call(42)).toThrow(/not a number/);
    });

    it('answers invalid_body for a signed body that is not a JSON object', () => {
      for (const body of [
        'not json',
        '[1,2]',
        '"usage.charged"',
        '{"id":"x"}',
        Buffer.from([0x7b, 0xff, 0x7d]),
      ]) {
        const headers = signedHeaders(body);
        expect(verifyWebhook({ rawBody: body, headers, secret: SECRET, now: NOW })).toMatchObject({
          ok: false,
          reason: 'invalid_body',
        });
      }
    });
  });
});
