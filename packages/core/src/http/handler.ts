import { invalid, MeterError } from '../domain/errors.js';
import type { Logger } from '../ports/runtime.js';
import type { Meter } from '../service/meter.js';
import { authenticate, createJwt, type JwtOptions, type Principal } from './auth.js';
import { errorResponse } from './error-mapping.js';
import { createLoginLimiter } from './login-limiter.js';
import { compileRoutes, type HandlerSettings, matchRoute, type Route, type RouteContext } from './router.js';
import { apiRoutes } from './routes/index.js';
import type { MeterHttpHandler, MeterRequest, MeterResponse } from './types.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface HandlerOptions {
  meter: Meter;
  jwt: JwtOptions;
  /** Whether POST /api/auth/register is open; default true. */
  allowRegistration?: boolean;
  /** Largest accepted request body in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** Block explorer base URL shown by /api/channel/config. */
  explorerUrl?: string | null;
  logger?: Logger;
  /** Extra routes (e.g. live-mode diagnostics), matched after the built-in ones. */
  routes?: Route[];
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** Whether a path belongs to the metering API; anything else is left to the host app. */
export function isMeterPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === '/health';
}

/**
 * The framework-agnostic handler: routing, auth, validation and error mapping live here;
 * adapters only convert requests and responses.
 */
export function createMeterHandler(options: HandlerOptions): MeterHttpHandler & { logger: Logger } {
  const { meter } = options;
  const logger: Logger = options.logger ?? {
    info() {},
    warn() {},
    error: (m: string, f?: unknown) => console.error(m, f),
  };
  const jwt = createJwt(options.jwt);
  const routes = compileRoutes([...apiRoutes, ...(options.routes ?? [])]);
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const loginLimiter = createLoginLimiter();
  const settings: HandlerSettings = {
    allowRegistration: options.allowRegistration ?? true,
    channel: {
      provider: meter.provider.mode,
      currency: meter.provider.currency,
      invoiceExpirySecs: meter.provider.invoiceExpirySecs,
      explorerUrl: options.explorerUrl ?? null,
    },
  };

  async function handle(request: MeterRequest): Promise<MeterResponse> {
    try {
      if (request.body && request.body.byteLength > bodyLimit) {
        throw new MeterError('payload_too_large', `The request body exceeds ${bodyLimit} bytes`);
      }
      const match = matchRoute(routes, request.method.toUpperCase(), request.path);
      if (!match) throw new MeterError('not_found', `No route for ${request.method} ${request.path}`);
      if ('allowed' in match) {
        return errorResponse(
          new MeterError('method_not_allowed', `${request.method} is not allowed here`, {
            allowed: match.allowed,
          }),
          logger,
          { allow: match.allowed.join(', ') },
        );
      }
      const { route, params } = match;
      const principal: Principal =
        route.auth === 'none'
          ? { developerId: '', kind: 'jwt' }
          : await authenticate(request, meter, jwt, route.auth === 'usage');
      const ctx: RouteContext = {
        request,
        params,
        principal,
        meter,
        jwt,
        settings,
        loginLimiter,
        json: lazyJson(request.body),
      };
      const result = await route.handle(ctx);
      const status = result.status ?? 200;
      return {
        status,
        headers: { ...JSON_HEADERS, ...result.headers },
        body: status === 204 ? undefined : JSON.stringify(result.body ?? null),
      };
    } catch (err) {
      const retryAfter: Record<string, string> =
        err instanceof MeterError && err.code === 'rate_limited'
          ? { 'retry-after': String(err.details?.retryAfter) }
          : {};
      return errorResponse(err, logger, retryAfter);
    }
  }

  return Object.assign(handle, { bodyLimit, logger });
}

/** Parses the body on first use; returned, not declared, so no per-request function gets a name. */
function lazyJson(body: Uint8Array | null): () => unknown {
  let parsed: unknown;
  return () => (parsed ??= parseJsonBody(body));
}

function parseJsonBody(body: Uint8Array | null): unknown {
  if (!body || body.byteLength === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw invalid('The request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('The request body must be a JSON object');
  }
  return value;
}
