import { createHmac } from 'node:crypto';
import { createMeterHandler, type HandlerOptions } from '../../http/handler.js';
import type { Route } from '../../http/router.js';
import type { MeterHttpHandler } from '../../http/types.js';
import type { Clock, Logger } from '../../ports/runtime.js';
import type { Meter } from '../../service/meter.js';
import { type Client, type Coverage, createClient, createCoverage } from './client.js';

export interface HostOptions {
  /** Mount the framework's usual JSON body parser for the whole app, before the meter. */
  parseJsonFirst: boolean;
}

export interface ListeningHost {
  /** e.g. `http://127.0.0.1:41234` */
  baseUrl: string;
  close(): Promise<void>;
}

export interface HttpAdapterConformanceOptions {
  /** The describe block's name, e.g. "Koa 3". */
  name: string;
  /** A meter on fresh storage of its own; it MUST use `clock`. The suite closes it. */
  createMeter(options: { clock: Clock }): Promise<Meter>;
  /**
   * Starts a host app of the adapter's framework on 127.0.0.1 (a free port) that holds, in order:
   * - a middleware of the host's own, before the meter, adding `x-host-middleware: seen` to
   *   every response (the meter's too);
   * - with `parseJsonFirst`, the framework's usual JSON body parser for every path;
   * - the meter, mounted with the adapter;
   * - the host's routes: `GET /host/ping` -> JSON `{"host":"ping"}`, and
   *   `POST /host/echo` -> the body as the host parsed it (JSON), when `parseJsonFirst`.
   */
  listen(handler: MeterHttpHandler, host: HostOptions): Promise<ListeningHost>;
  /**
   * What the adapter does behind a host's JSON body parser: `works` (the exact bytes still
   * reach the meter) or `refuses` (a 500 whose message says where to mount, logged).
   */
  bodyParserHost: 'works' | 'refuses';
}

export const JWT_SECRET = 'http-conformance-jwt-secret-0123456789abcdef';
export const ECHO_SECRET = 'http-conformance-echo-secret';
export const ECHO_PATH = '/api/_conformance/echo';

/** A test-only route: the HMAC of the exact bytes it received, and what else it was given. */
const echoRoute: Route = {
  method: 'POST',
  path: ECHO_PATH,
  auth: 'none',
  async handle({ request }) {
    const bytes = request.body ?? new Uint8Array();
    return {
      body: {
        hmac: createHmac('sha256', ECHO_SECRET).update(bytes).digest('hex'),
        bytes: bytes.byteLength,
        query: request.query.get('q'),
        contentType: request.headers['content-type'] ?? null,
        remoteAddress: request.remoteAddress ?? null,
      },
      headers: { 'x-conformance-echo': 'yes' },
    };
  },
};

export const hmacOf = (bytes: string | Uint8Array): string =>
  createHmac('sha256', ECHO_SECRET).update(bytes).digest('hex');

/** Real time, unless set to another moment (it then runs on from there). */
export function shiftableClock(): SuiteContext['clock'] {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    set(at) {
      offset = (typeof at === 'number' ? at : at.getTime()) - Date.now();
    },
  };
}

/** What every test of one suite run shares: the meter, the main host, extra hosts, the logs. */
export interface SuiteContext {
  clock: Clock & { set(at: Date | number): void };
  meter: Meter;
  api: Client;
  coverage: Coverage;
  /** Messages the handlers logged as errors. */
  errors: string[];
  /** Another host on the same meter, with other handler options; closed after the suite. */
  host(handlerOptions: Partial<HandlerOptions>, host: HostOptions): Promise<Client>;
}

export async function startSuite(
  options: HttpAdapterConformanceOptions,
  clock: SuiteContext['clock'],
): Promise<SuiteContext & { close(): Promise<void> }> {
  const meter = await options.createMeter({ clock });
  const errors: string[] = [];
  const logger: Logger = {
    info() {},
    warn() {},
    error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields ?? {})}`),
  };
  const coverage = createCoverage();
  const hosts: ListeningHost[] = [];
  const host = async (handlerOptions: Partial<HandlerOptions>, hostOptions: HostOptions) => {
    const handler = createMeterHandler({
      meter,
      jwt: { secret: JWT_SECRET },
      logger,
      routes: [echoRoute],
      ...handlerOptions,
    });
    const listening = await options.listen(handler, hostOptions);
    hosts.push(listening);
    return createClient(listening.baseUrl, coverage);
  };
  const api = await host({}, { parseJsonFirst: false });
  return {
    clock,
    meter,
    api,
    coverage,
    errors,
    host,
    async close() {
      await Promise.all(hosts.map((h) => h.close()));
      await meter.close();
    },
  };
}
