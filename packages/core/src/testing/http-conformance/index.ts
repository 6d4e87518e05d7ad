import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRouteTests, type WalkState } from './account-routes.js';
import {
  type HttpAdapterConformanceOptions,
  type SuiteContext,
  shiftableClock,
  startSuite,
} from './context.js';
import { errorAnswerTests } from './error-answers.js';
import { moneyRouteTests } from './money-routes.js';
import { bodyParserHostTests } from './parser-host.js';
import { transportTests } from './transport.js';

export type { HostOptions, HttpAdapterConformanceOptions, ListeningHost } from './context.js';
export { listenOn } from './listen-on.js';

/**
 * Registers the HTTP adapter conformance suite with vitest. Over real sockets, through a host
 * app that `listen` starts, it walks every route of the API with its success and error
 * statuses and bodies, checks headers (X-Next-Cursor, Allow, Retry-After), exact request
 * bytes (HMAC over an unusual body), the body limit (413), malformed JSON (400), unknown
 * `/api` paths (JSON 404), paths left to the host, mounting behind the host's middlewares,
 * and behaviour behind a host's JSON body parser. Call it once per adapter.
 */
export function runHttpAdapterConformance(options: HttpAdapterConformanceOptions): void {
  describe(options.name, () => {
    let suite: (SuiteContext & { close(): Promise<void> }) | undefined;
    const s = (): SuiteContext => {
      if (!suite) throw new Error(`${options.name}: the suite did not start`);
      return suite;
    };
    const state = {} as WalkState;

    beforeAll(async () => {
      suite = await startSuite(options, shiftableClock());
    });
    afterAll(async () => {
      await suite?.close();
    });

    accountRouteTests(s, state);
    moneyRouteTests(s, state);
    errorAnswerTests(s, state);
    transportTests(s);
    bodyParserHostTests(s, options);

    it('answered every route of the API at least once (2xx, or 403 where a route needs live mode)', () => {
      expect(s().coverage.missing()).toEqual([]);
    });
  });
}
