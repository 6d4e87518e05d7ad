import { invalid } from '../domain/errors.js';
import type { Page, PageQuery } from '../ports/meter-store.js';
import type { Meter } from '../service/meter.js';
import type { Jwt, Principal } from './auth.js';
import type { createLoginLimiter } from './login-limiter.js';
import type { MeterRequest } from './types.js';

export interface HandlerSettings {
  allowRegistration: boolean;
  channel: { provider: string; currency: string; invoiceExpirySecs: number; explorerUrl: string | null };
}

export interface RouteContext {
  request: MeterRequest;
  params: Record<string, string>;
  /** The caller; set for every route whose auth is not 'none'. */
  principal: Principal;
  meter: Meter;
  jwt: Jwt;
  settings: HandlerSettings;
  loginLimiter: ReturnType<typeof createLoginLimiter>;
  /** The parsed JSON body ({} when empty). */
  json(): unknown;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** 'jwt': dashboard token; 'usage': API key or dashboard token; 'none': public. */
  auth: 'none' | 'jwt' | 'usage';
  handle(ctx: RouteContext): Promise<RouteResult>;
}

export interface CompiledRoute extends Route {
  regex: RegExp;
  keys: string[];
}

export function compileRoutes(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const keys: string[] = [];
    const source = route.path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
      keys.push(key);
      return '([^/]+)';
    });
    return { ...route, regex: new RegExp(`^${source}/?$`), keys };
  });
}

export type RouteMatch =
  | { route: CompiledRoute; params: Record<string, string> }
  | { allowed: string[] }
  | null;

export function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.regex.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    route.keys.forEach((key, i) => {
      params[key] = safeDecode(m[i + 1]!);
    });
    return { route, params };
  }
  return allowed.length ? { allowed } : null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid('Malformed path segment');
  }
}

/** `?limit=` (default 100, max 1000) and `?cursor=`. */
export function pageQuery(query: URLSearchParams): PageQuery {
  const rawLimit = query.get('limit');
  let limit = 100;
  if (rawLimit !== null) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 1000) {
      throw invalid('limit must be an integer from 1 to 1000', {
        issues: [{ path: 'limit', message: 'out of range' }],
      });
    }
    limit = Number(rawLimit);
  }
  const cursor = query.get('cursor') ?? undefined;
  if (cursor !== undefined && (cursor.length === 0 || cursor.length > 100))
    throw invalid('cursor is not valid');
  return { limit, cursor };
}

/** A list answer: the array body and, unless this is the last page, `X-Next-Cursor`. */
export function listResult<T>(page: Page<T>, serialize: (item: T) => unknown): RouteResult {
  return {
    body: page.items.map(serialize),
    headers: page.nextCursor ? { 'x-next-cursor': page.nextCursor } : {},
  };
}

/** Reads an optional enum filter from the query string. */
export function enumFilter<T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw invalid(`${name} must be one of: ${values.join(', ')}`, {
      issues: [{ path: name, message: 'invalid value' }],
    });
  }
  return value as T;
}

export function textFilter(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (value.length > 200) throw invalid(`${name} is too long`);
  return value;
}
