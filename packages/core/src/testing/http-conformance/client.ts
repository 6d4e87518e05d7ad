import { expect } from 'vitest';
import { compileRoutes, matchRoute } from '../../http/router.js';
import { apiRoutes } from '../../http/routes/index.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are JSON, checked field by field with expect()
export type Json = any;

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

export interface RequestOptions {
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as these exact bytes. */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

const compiled = compileRoutes(apiRoutes);

/**
 * Which API routes have answered through some client with a success, or with 403 (the routes
 * that need live mode refuse in simulated mode): the suite checks that all did.
 */
export function createCoverage() {
  const answered = new Set<string>();
  return {
    record(method: string, path: string, status: number) {
      if ((status < 200 || status > 299) && status !== 403) return;
      const match = matchRoute(compiled, method, path.split('?', 1)[0]!);
      if (match && 'route' in match) answered.add(`${match.route.method} ${match.route.path}`);
    },
    missing: () =>
      compiled.routes.map((r) => `${r.method} ${r.path}`).filter((route) => !answered.has(route)),
  };
}

export type Coverage = ReturnType<typeof createCoverage>;

export function createClient(baseUrl: string, coverage?: Coverage) {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.raw;
    if (options.json !== undefined) body = JSON.stringify(options.json);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: body as RequestInit['body'],
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    let parsed: Json;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    coverage?.record(method, path, res.status);
    return { status: res.status, headers: res.headers, text, body: parsed };
  }
  const withToken = (token: string | undefined) => (token ? { token } : {});
  return {
    baseUrl,
    request,
    get: (path: string, token?: string) => request('GET', path, withToken(token)),
    post: (path: string, json: unknown, token?: string) =>
      request('POST', path, { json, ...withToken(token) }),
    put: (path: string, json: unknown, token?: string) => request('PUT', path, { json, ...withToken(token) }),
    del: (path: string, token?: string) => request('DELETE', path, withToken(token)),
  };
}

export type Client = ReturnType<typeof createClient>;

/** A JSON success: the status, and the API's JSON content type and no-store caching. */
export function expectOk(res: HttpResult, status = 200): void {
  expect(res.status, res.text).toBe(status);
  if (status === 204) {
    expect(res.text).toBe('');
    return;
  }
  expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8$/i);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

/** An error answer: the status and `{"error": {"code", "message", "details"?}}` as JSON. */
export function expectError(res: HttpResult, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8$/i);
  expect(res.body).toEqual({
    error: expect.objectContaining({ code: code ?? expect.any(String), message: expect.any(String) }),
  });
  expect(Object.keys(res.body.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
}
