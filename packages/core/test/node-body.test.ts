import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRawBody } from '../src/http/node.js';

/** A request whose body another middleware already read to the end, as a body parser does. */
async function consumed(body: Buffer, headers: Record<string, string>): Promise<IncomingMessage> {
  const req = Object.assign(new PassThrough(), { headers });
  req.end(body);
  for await (const _ of req) {
    // drained
  }
  return req as unknown as IncomingMessage;
}

const text = '{"a":"é 🌍",  "n": 1.0}';
const utf8 = Buffer.from(text);
const json = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'content-length': String(utf8.byteLength),
  ...extra,
});

describe('readRawBody behind a body parser', () => {
  it("uses the parser's retained text or buffer when it provably is the bytes sent", async () => {
    expect(
      Buffer.from((await readRawBody(await consumed(utf8, json()), 1024, { retainedBody: text }))!),
    ).toEqual(utf8);
    const withCharset = json({ 'content-type': 'application/json; charset="UTF-8"' });
    expect(await readRawBody(await consumed(utf8, withCharset), 1024, { retainedBody: text })).not.toBeNull();
    expect(await readRawBody(await consumed(utf8, json()), 1024, { retainedBody: utf8 })).toBe(utf8);
  });

  it('refuses, saying where to mount, when the retained copy may differ from the bytes sent', async () => {
    const cases: [Record<string, string>, unknown][] = [
      [json(), undefined], // nothing kept
      [json({ 'content-encoding': 'gzip' }), text], // the parser inflated it
      [json({ 'content-type': 'application/json; charset=latin1' }), text], // decoded as another charset
      [json({ 'content-length': String(utf8.byteLength + 3) }), text], // a stripped byte-order mark
      [{ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, text], // no length to check
      [json(), text.replace('é', '\uFFFD')], // a replaced invalid sequence
    ];
    for (const [headers, retainedBody] of cases) {
      await expect(
        readRawBody(await consumed(utf8, headers), 1024, { retainedBody, mountHint: 'Mount it first.' }),
      ).rejects.toMatchObject({
        code: 'internal_error',
        message: expect.stringMatching(/already read.*Mount it first\./),
      });
    }
  });

  it('still enforces the limit on a retained body, and reads an empty consumed body as none', async () => {
    await expect(readRawBody(await consumed(utf8, json()), 4, { retainedBody: text })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(await readRawBody(await consumed(Buffer.alloc(0), { 'content-length': '0' }), 4)).toBeNull();
  });
});
