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
  /** Position in the list: the first route that matches wins. */
  order: number;
}

/** Routes bucketed by their first two path segments, so a request tests only its own few. */
export interface RouteTable {
  routes: CompiledRoute[];
  byPrefix: Map<string, CompiledRoute[]>;
  /** Routes with a parameter in their first two segments: tested for every path. */
  anywhere: CompiledRoute[];
}

/** `/api/customers/cus_1/balances` -> `/api/customers`; `/health/` -> `/health`. */
function prefixOf(path: string): string {
  const first = path.indexOf('/', 1);
  if (first === -1) return path;
  const second = path.indexOf('/', first + 1);
  const prefix = second === -1 ? path : path.slice(0, second);
  return prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
}

export function compileRoutes(routes: Route[]): RouteTable {
  const table: RouteTable = { routes: [], byPrefix: new Map(), anywhere: [] };
  routes.forEach((route, order) => {
    const keys: string[] = [];
    const source = route.path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
      keys.push(key);
      return '([^/]+)';
    });
    const compiled = { ...route, regex: new RegExp(`^${source}/?$`), keys, order };
    table.routes.push(compiled);
    const prefix = prefixOf(route.path);
    if (prefix.includes(':')) table.anywhere.push(compiled);
    else table.byPrefix.set(prefix, [...(table.byPrefix.get(prefix) ?? []), compiled]);
  });
  return table;
}

export type RouteMatch =
  | { route: CompiledRoute; params: Record<string, string> }
  | { allowed: string[] }
  | null;

export function matchRoute(table: RouteTable, method: string, path: string): RouteMatch {
  const bucket = table.byPrefix.get(prefixOf(path)) ?? [];
  const candidates = table.anywhere.length
    ? [...bucket, ...table.anywhere].sort((a, b) => a.order - b.order)
    : bucket;
  const allowed: string[] = [];
  for (const route of candidates) {
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
