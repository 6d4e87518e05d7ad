import { expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../http/handler.js';
import { expectError, expectOk } from './client.js';
import { ECHO_PATH, hmacOf, type SuiteContext } from './context.js';

/** Unicode, odd whitespace, keys out of order, and a number no double holds: re-serialising changes it. */
export const UNUSUAL_BODY =
  '{"zeta":1,  "alpha" :\t"h\u00e9llo \u4e16\u754c \u{1F30D} \\u00e9",\r\n "big": 123456789012345678901234567890.50,' +
  ' "neg":-0.0e0, "list":[ ],"nested":{"b":2,"a":1}}\n\n';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Bytes, limits, malformed bodies, path ownership and headers: what an adapter can get wrong. */
export function transportTests(s: () => SuiteContext): void {
  it('passes the exact request bytes, the query string, headers and the peer address', async () => {
    const res = await s().api.request('POST', `${ECHO_PATH}?q=a%20b`, {
      raw: UNUSUAL_BODY,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectOk(res);
    expect(res.body).toMatchObject({
      hmac: hmacOf(UNUSUAL_BODY),
      bytes: Buffer.byteLength(UNUSUAL_BODY),
      query: 'a b',
      contentType: 'application/json; charset=utf-8',
    });
    expect(res.body.remoteAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(res.headers.get('x-conformance-echo')).toBe('yes');
  });

  it('keeps bytes exact for a chunked body split inside a character, and for concurrent requests', async () => {
    const bytes = Buffer.from(UNUSUAL_BODY.repeat(50));
    const chunks = [bytes.subarray(0, 23), bytes.subarray(23, 4096), bytes.subarray(4096)];
    const res = await s().api.request('POST', ECHO_PATH, { raw: streamOf(chunks) });
    expectOk(res);
    expect(res.body).toMatchObject({ hmac: hmacOf(bytes), bytes: bytes.byteLength });
    const bodies = Array.from({ length: 20 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(i * 97)}"}`);
    const answers = await Promise.all(bodies.map((raw) => s().api.request('POST', ECHO_PATH, { raw })));
    expect(answers.map((a) => a.body.hmac)).toEqual(bodies.map((b) => hmacOf(b)));
  });

  it('an empty body is no body, and a body of exactly the limit is accepted', async () => {
    const empty = await s().api.request('POST', ECHO_PATH);
    expectOk(empty);
    expect(empty.body.bytes).toBe(0);
    const full = Buffer.alloc(DEFAULT_BODY_LIMIT, 0x20);
    const res = await s().api.request('POST', ECHO_PATH, { raw: full });
    expectOk(res);
    expect(res.body.bytes).toBe(DEFAULT_BODY_LIMIT);
  });

  it('a body over the limit is a 413, by Content-Length or while streaming', async () => {
    const over = Buffer.alloc(DEFAULT_BODY_LIMIT + 1, 0x20);
    expectError(await s().api.request('POST', ECHO_PATH, { raw: over }), 413, 'payload_too_large');
    const chunks = Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 0x20));
    const streamed = await s().api.request('POST', '/api/customers', { raw: streamOf(chunks) });
    expectError(streamed, 413, 'payload_too_large');
  });

  it('malformed JSON, a non-object and invalid UTF-8 are 400 validation_error', async () => {
    for (const raw of ['{"email": ', '[1,2]', '"text"', new Uint8Array([0x7b, 0xff, 0x7d])]) {
      expectError(await s().api.request('POST', '/api/auth/login', { raw }), 400, 'validation_error');
    }
  });

  it('unknown /api paths are a JSON 404; a trailing slash is accepted', async () => {
    for (const path of ['/api', '/api/', '/api/nothing-here', '/api/customers/a/b/c?x=1']) {
      expectError(await s().api.get(path), 404, 'not_found');
    }
    expectOk(await s().api.get('/api/channel/config/'));
  });

  it('leaves paths outside /api to the host app, and runs behind its middlewares', async () => {
    const { api } = s();
    const ping = await api.get('/host/ping');
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({ host: 'ping' });
    for (const path of ['/apis', '/api-docs', '/healthz', '/health/deep']) {
      const res = await api.get(path);
      expect(res.status, path).toBe(404);
      expect(typeof res.body?.error?.code, `${path} must be the host's 404, not the meter's`).not.toBe(
        'string',
      );
    }
    for (const res of [ping, await api.get('/api/channel/config'), await api.get('/api/nothing-here')]) {
      expect(res.headers.get('x-host-middleware')).toBe('seen');
    }
  });
}
