import { apiKeysResource, authResource } from './account.js';
import { pricingRulesResource, servicesResource } from './catalog.js';
import { channelResource, dashboardResource } from './channel.js';
import { balancesResource, customersResource, ledgerResource } from './customers.js';
import { createHttp } from './http.js';
import { paymentRequestsResource } from './payments.js';
import { DEFAULT_RETRY, type RetryOptions, retryOptions } from './retry.js';
import { usageResource } from './usage.js';
import { eventsResource, webhookDeliveriesResource } from './webhooks.js';

export interface MeterClientOptions {
  /** The API's origin without /api, e.g. `http://localhost:3000` (a path prefix is kept). */
  baseUrl: string;
  /** An API key (`mk_...`), sent as X-Api-Key on usage ingestion only. */
  apiKey?: string | undefined;
  /** A dashboard JWT, sent as `Authorization: Bearer` on every authenticated call; `auth.login()` sets it. */
  token?: string | undefined;
  /** Per attempt, covering the whole answer; default 10000 ms. */
  timeoutMs?: number;
  /** The fetch implementation; default globalThis.fetch. */
  fetch?: typeof fetch;
  /** How `usage.record` retries network failures, timeouts and 5xx answers. */
  retry?: Partial<RetryOptions>;
  /** The random source of the retry jitter (tests). */
  random?: () => number;
}

export type MeterClient = ReturnType<typeof createMeterClient>;

/**
 * A client for the Meter HTTP API, for servers only: it holds an API key or a JWT, which must
 * never reach a browser. Every method resolves to the JSON body of docs/api.md (paginated lists
 * to `{ items, nextCursor }`, 204s to nothing), and rejects with a MeterApiError for a non-2xx
 * answer or a MeterNetworkError when no answer could be read.
 */
export function createMeterClient(options: MeterClientOptions) {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError('createMeterClient: no fetch implementation; pass `fetch` (Node.js 20.19+ has one)');
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`createMeterClient: timeoutMs must be a positive number; got ${timeoutMs}`);
  }
  for (const name of ['apiKey', 'token'] as const) {
    if (options[name] !== undefined && (typeof options[name] !== 'string' || options[name] === '')) {
      throw new TypeError(`createMeterClient: ${name} is empty (is its environment variable set?)`);
    }
  }
  const http = createHttp({
    baseUrl: normalizeBaseUrl(options.baseUrl),
    apiKey: options.apiKey,
    token: options.token,
    timeoutMs,
    fetch: (input, init) => fetchImpl(input, init),
  });
  const retry = retryOptions(DEFAULT_RETRY, options.retry);
  return {
    auth: authResource(http),
    apiKeys: apiKeysResource(http),
    services: servicesResource(http),
    pricingRules: pricingRulesResource(http),
    customers: customersResource(http),
    balances: balancesResource(http),
    ledger: ledgerResource(http),
    paymentRequests: paymentRequestsResource(http),
    usage: usageResource(http, retry, options.random),
    webhookDeliveries: webhookDeliveriesResource(http),
    events: eventsResource(http),
    channel: channelResource(http),
    dashboard: dashboardResource(http),
    /** GET /health (public): `{ status: 'ok' }` while the server answers. */
    health() {
      return http.send<{ status: string }>({ method: 'GET', path: '/health', auth: 'none' });
    },
  };
}

function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(
      `createMeterClient: baseUrl must be an absolute URL such as http://localhost:3000; got ${JSON.stringify(input)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createMeterClient: baseUrl must be an http(s) URL; got ${url.protocol}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError('createMeterClient: baseUrl takes no query, fragment or credentials');
  }
  const base = url.href.replace(/\/+$/, '');
  if (base.endsWith('/api')) {
    throw new TypeError(
      `createMeterClient: baseUrl is the origin without /api (every path the client sends starts with /api); use ${base.slice(0, -4)}`,
    );
  }
  return base;
}
