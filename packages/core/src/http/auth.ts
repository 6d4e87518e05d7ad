import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { MeterError } from '../domain/errors.js';
import { API_KEY_PREFIX } from '../service/credentials.js';
import type { Meter } from '../service/meter.js';
import type { MeterRequest } from './types.js';

const ISSUER = 'meter';
const AUDIENCE = 'meter-dashboard';

export interface JwtOptions {
  /** HMAC secret for HS256 dashboard tokens: at least 32 characters. */
  secret: string;
  /** Token lifetime in seconds; default 12 hours. */
  ttlSeconds?: number;
}

export interface Principal {
  developerId: string;
  kind: 'jwt' | 'api_key';
}

const unauthorized = (message: string) => new MeterError('unauthorized', message);

export function createJwt(options: JwtOptions) {
  if (options.secret.length < 32) throw new Error('The JWT secret must be at least 32 characters long');
  const key = new TextEncoder().encode(options.secret);
  const ttl = options.ttlSeconds ?? 12 * 60 * 60;

  return {
    async issue(developerId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
      const iat = Math.floor(now.getTime() / 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(developerId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl)
        .sign(key);
      return { token, expiresAt: new Date((iat + ttl) * 1000) };
    },

    async verify(token: string, now: Date): Promise<string> {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: now,
        });
        if (!payload.sub) throw unauthorized('Invalid token');
        return payload.sub;
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw unauthorized('The token has expired; log in again');
        throw unauthorized('Invalid token');
      }
    },
  };
}

export type Jwt = ReturnType<typeof createJwt>;

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/**
 * Resolves who is calling. `Authorization: Bearer <jwt|api key>` decides when present;
 * otherwise `X-Api-Key`. API keys are accepted only where `allowApiKey` is set (usage ingestion).
 */
export async function authenticate(
  request: MeterRequest,
  meter: Meter,
  jwt: Jwt,
  allowApiKey: boolean,
): Promise<Principal> {
  const fromAuthorization = bearer(request.headers.authorization);
  const token = fromAuthorization ?? (allowApiKey ? request.headers['x-api-key']?.trim() || null : null);
  if (!token) {
    throw unauthorized(
      allowApiKey
        ? 'Send an API key or a dashboard token'
        : 'Send a dashboard token (Authorization: Bearer <jwt>)',
    );
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    if (!allowApiKey)
      throw unauthorized('API keys are accepted for usage ingestion only; use a dashboard token');
    const key = await meter.authenticateApiKey(token);
    if (!key) throw unauthorized('Invalid or revoked API key');
    return { developerId: key.developerId, kind: 'api_key' };
  }
  return { developerId: await jwt.verify(token, meter.clock.now()), kind: 'jwt' };
}
