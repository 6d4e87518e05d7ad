import type { Page } from '@meter/core';
import { MeterApiError, MeterNetworkError, MeterTimeoutError } from './errors.js';

/** Which credentials a route takes: the JWT, the JWT or the API key (usage ingestion), or none. */
export type RouteAuth = 'jwt' | 'usage' | 'none';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Starts with /api (or is /health). */
  path: string;
  auth?: RouteAuth;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  token?: string | undefined;
  timeoutMs: number;
  fetch: typeof fetch;
}

export interface Http {
  /** Sends one request; resolves with the parsed 2xx body (undefined for 204) and the headers. */
  request<T>(spec: RequestSpec): Promise<{ body: T; headers: Headers }>;
  send<T>(spec: RequestSpec): Promise<T>;
  /** A paginated list: the array body and the X-Next-Cursor header. */
  list<T>(path: string, query?: Record<string, QueryValue>): Promise<Page<T>>;
  getToken(): string | undefined;
  setToken(token: string | undefined): void;
}

export function createHttp(options: HttpOptions): Http {
  let token = options.token;
  const { apiKey, timeoutMs, baseUrl } = options;

  function headersFor(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const auth = spec.auth ?? 'jwt';
    if (auth !== 'none' && token) headers.authorization = `Bearer ${token}`;
    // Only usage ingestion reads X-Api-Key; with a token as well, the server lets Authorization decide.
    if (auth === 'usage' && apiKey) headers['x-api-key'] = apiKey;
    return headers;
  }

  async function request<T>(spec: RequestSpec): Promise<{ body: T; headers: Headers }> {
    const url = new URL(baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const what = { method: spec.method, path: spec.path };
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = spec.signal ? AbortSignal.any([timeout, spec.signal]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(url, {
        method: spec.method,
        headers: headersFor(spec),
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        redirect: 'manual',
        signal,
      });
      text = await response.text();
    } catch (err) {
      throw transportError(err, what, { timeout, caller: spec.signal, timeoutMs, baseUrl });
    }
    const parsed = parseJson(text);
    if (response.status < 200 || response.status > 299) {
      throw new MeterApiError(response.status, parsed.ok ? parsed.value : text, what);
    }
    if (!parsed.ok) {
      throw new MeterNetworkError(
        `${what.method} ${what.path} answered ${response.status} with a body that is not JSON ` +
          `(is ${baseUrl} the Meter API?): ${text.slice(0, 100)}`,
      );
    }
    return { body: parsed.value as T, headers: response.headers };
  }

  return {
    request,
    send: async <T>(spec: RequestSpec) => (await request<T>(spec)).body,
    async list<T>(path: string, query: Record<string, QueryValue> = {}) {
      const { body, headers } = await request<T[]>({ method: 'GET', path, query });
      return { items: body, nextCursor: headers.get('x-next-cursor') };
    },
    getToken: () => token,
    setToken(next) {
      token = next;
    },
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function transportError(
  err: unknown,
  what: { method: string; path: string },
  context: { timeout: AbortSignal; caller: AbortSignal | undefined; timeoutMs: number; baseUrl: string },
): MeterNetworkError {
  const call = `${what.method} ${what.path}`;
  if (context.caller?.aborted) {
    return new MeterNetworkError(`${call} was aborted by the caller`, {
      cause: context.caller.reason ?? err,
      aborted: true,
    });
  }
  if (context.timeout.aborted) {
    return new MeterTimeoutError(`${call}: no answer within ${context.timeoutMs} ms`, context.timeoutMs, err);
  }
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const reason = cause?.code ?? cause?.message ?? (err as Error | null)?.message ?? String(err);
  return new MeterNetworkError(`${call} failed: the API at ${context.baseUrl} did not answer (${reason})`, {
    cause: err,
  });
}
