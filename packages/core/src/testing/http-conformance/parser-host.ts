import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, expectError, expectOk, type HttpResult } from './client.js';
import { ECHO_PATH, type HttpAdapterConformanceOptions, hmacOf, type SuiteContext } from './context.js';
import { UNUSUAL_BODY } from './transport.js';

/** A refusal says what happened and where to mount instead, and is logged. */
function expectRefusal(s: () => SuiteContext, res: HttpResult): void {
  expectError(res, 500, 'internal_error');
  expect(res.body.error.message).toMatch(/already read/);
  expect(res.body.error.message).toMatch(/before/);
  expect(s().errors.join('\n')).toContain('already read');
}

/** Mounted behind a host that parses JSON bodies first: it works with exact bytes, or refuses loudly. */
export function bodyParserHostTests(s: () => SuiteContext, options: HttpAdapterConformanceOptions): void {
  describe(`behind the host's own JSON body parser (${options.bodyParserHost})`, () => {
    let host: Client;
    beforeAll(async () => {
      host = await s().host({}, { parseJsonFirst: true });
    });

    it("keeps the host's parser working for the host's own routes", async () => {
      const res = await host.post('/host/echo', { a: [1, 2], b: 'ü' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ a: [1, 2], b: 'ü' });
      expectOk(await host.get('/api/channel/config'));
    });

    it(
      options.bodyParserHost === 'works'
        ? 'receives the exact bytes'
        : 'refuses with a 500 saying where to mount',
      async () => {
        const res = await host.request('POST', ECHO_PATH, { raw: UNUSUAL_BODY });
        if (options.bodyParserHost === 'works') {
          expectOk(res);
          expect(res.body.hmac).toBe(hmacOf(UNUSUAL_BODY));
        } else {
          expectRefusal(s, res);
        }
        const register = { email: 'parsed@example.com', password: 'long enough pw', name: 'P' };
        const reg = await host.post('/api/auth/register', register);
        if (options.bodyParserHost === 'works') expectOk(reg, 201);
        else expectRefusal(s, reg);
      },
    );

    it('never hands the meter bytes the parser altered (a stripped byte-order mark)', async () => {
      const raw = '\uFEFF{"bom":true}';
      const res = await host.request('POST', ECHO_PATH, { raw });
      if (res.status === 200) expect(res.body.hmac).toBe(hmacOf(raw));
      else expectRefusal(s, res);
    });
  });
}
