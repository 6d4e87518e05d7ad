import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { meterExpress } from '@meter/adapter-express';
import {
  type Clock,
  createMeter,
  createMeterHandler,
  type Meter,
  type MeterHttpHandler,
  type MeterStore,
} from '@meter/core';
import { simulatedProvider } from '@meter/provider-sim';
import { openStore } from '@meter/store-knex';
import express from 'express';

export interface TestApp {
  baseUrl: string;
  meter: Meter;
  store: MeterStore;
  api: ApiClient;
  close(): Promise<void>;
}

/** Starts the real stack (Express adapter, handler, meter, SQLite store) on a random port. */
export async function startApp(
  options: {
    clock?: Clock;
    databaseUrl?: string;
    invoiceExpirySecs?: number;
    /** Puts something between the adapter and the real handler (e.g. to fail answers on purpose). */
    wrapHandler?: (handler: MeterHttpHandler) => MeterHttpHandler;
  } = {},
): Promise<TestApp> {
  const store = await openStore(options.databaseUrl ?? 'sqlite::memory:');
  const meter = createMeter({
    store,
    provider: simulatedProvider({ invoiceExpirySecs: options.invoiceExpirySecs ?? 3600 }),
    ...(options.clock ? { clock: options.clock } : {}),
    webhooks: { timeoutMs: 2000, allowPrivateNetworks: true },
  });
  const handler = createMeterHandler({
    meter,
    jwt: { secret: 'test-jwt-secret-that-is-long-enough-0123456789' },
    logger: { info() {}, warn() {}, error() {} },
  });
  const app = express();
  app.use(meterExpress(options.wrapHandler ? options.wrapHandler(handler) : handler));
  app.get('/host-route', (_req, res) => {
    res.json({ host: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    meter,
    store,
    api: apiClient(baseUrl),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await meter.close();
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type ApiClient = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string) {
  async function request<T = any>(
    method: string,
    path: string,
    options: {
      token?: string;
      body?: unknown;
      rawBody?: string | Uint8Array;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(baseUrl + path, { method, headers, body: body as RequestInit['body'] });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }
  return {
    request,
    get: <T = any>(path: string, token?: string) => request<T>('GET', path, token ? { token } : {}),
    post: <T = any>(path: string, body: unknown, token?: string) =>
      request<T>('POST', path, { body, ...(token ? { token } : {}) }),
    put: <T = any>(path: string, body: unknown, token?: string) =>
      request<T>('PUT', path, { body, ...(token ? { token } : {}) }),
    del: <T = any>(path: string, token?: string) => request<T>('DELETE', path, token ? { token } : {}),
  };
}

let counter = 0;

/** Registers a fresh developer and returns its token. */
export async function signUp(
  api: ApiClient,
  name = 'dev',
): Promise<{ token: string; developerId: string; email: string }> {
  const email = `${name}-${Date.now()}-${counter++}@example.com`;
  const res = await api.post('/api/auth/register', { email, password: 'correct horse battery', name });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, developerId: res.body.developer.id, email };
}

export interface Fixture {
  token: string;
  developerId: string;
  serviceId: string;
  slug: string;
  ruleId: string;
  customerId: string;
  externalId: string;
  webhookSecret: string;
}

/** A developer with one service, one pricing rule and one customer. */
export async function setupFixture(
  api: ApiClient,
  options: { price?: string; pricingModel?: string; webhookUrl?: string | null } = {},
): Promise<Fixture> {
  const { token, developerId } = await signUp(api);
  const svc = await api.post(
    '/api/services',
    {
      name: 'Words',
      slug: 'words',
      webhookUrl: options.webhookUrl ?? null,
      webhookSecret: 'whsec_fixture_secret_0123456789',
    },
    token,
  );
  if (svc.status !== 201) throw new Error(`service: ${JSON.stringify(svc.body)}`);
  const rule = await api.post(
    `/api/services/${svc.body.id}/pricing-rules`,
    {
      name: 'Words',
      metricKey: 'words',
      unitName: 'word',
      pricingModel: options.pricingModel ?? 'per_unit',
      price: options.price ?? '1',
    },
    token,
  );
  if (rule.status !== 201) throw new Error(`rule: ${JSON.stringify(rule.body)}`);
  const cus = await api.post('/api/customers', { externalId: 'acme', name: 'Acme' }, token);
  if (cus.status !== 201) throw new Error(`customer: ${JSON.stringify(cus.body)}`);
  return {
    token,
    developerId,
    serviceId: svc.body.id,
    slug: 'words',
    ruleId: rule.body.id,
    customerId: cus.body.id,
    externalId: 'acme',
    webhookSecret: svc.body.webhookSecret,
  };
}

/** Creates a payment request for `amount` and confirms it with simulate-paid. */
export async function fund(
  api: ApiClient,
  token: string,
  customerId: string,
  amount: string,
): Promise<string> {
  const pr = await api.post('/api/payment-requests', { customerId, amount, asset: 'CKB' }, token);
  if (pr.status !== 201) throw new Error(`payment request: ${JSON.stringify(pr.body)}`);
  const paid = await api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, token);
  if (paid.status !== 200) throw new Error(`simulate-paid: ${JSON.stringify(paid.body)}`);
  return pr.body.id;
}

export function usage(
  f: Fixture,
  quantity: number,
  idempotencyKey: string,
  extra: Record<string, unknown> = {},
) {
  return { service: f.slug, customer: f.externalId, metricKey: 'words', quantity, idempotencyKey, ...extra };
}
