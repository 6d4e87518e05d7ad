import type { CreateApiKeyInput, LoginInput, RegisterInput } from '@meter/core';
import type { Http } from './http.js';
import type { ApiKey, AuthSession, CreatedApiKey, Developer } from './types.js';

const id = encodeURIComponent;

export function authResource(http: Http) {
  return {
    /** POST /api/auth/register; keeps the returned token for later calls. */
    async register(input: RegisterInput): Promise<AuthSession> {
      const session = await http.send<AuthSession>({
        method: 'POST',
        path: '/api/auth/register',
        auth: 'none',
        body: input,
      });
      http.setToken(session.token);
      return session;
    },
    /** POST /api/auth/login; keeps the returned token for later calls (log in again when it expires). */
    async login(input: LoginInput): Promise<AuthSession> {
      const session = await http.send<AuthSession>({
        method: 'POST',
        path: '/api/auth/login',
        auth: 'none',
        body: input,
      });
      http.setToken(session.token);
      return session;
    },
    /** GET /api/auth/me. */
    me() {
      return http.send<{ developer: Developer }>({ method: 'GET', path: '/api/auth/me' });
    },
    /** The JWT the client sends, if any. */
    getToken: (): string | undefined => http.getToken(),
    /** Replaces (or, with undefined, forgets) the JWT the client sends. */
    setToken(token: string | undefined): void {
      http.setToken(token);
    },
  };
}

export function apiKeysResource(http: Http) {
  return {
    /** POST /api/api-keys; the answer's `key` is shown this once. */
    create(input: CreateApiKeyInput) {
      return http.send<CreatedApiKey>({ method: 'POST', path: '/api/api-keys', body: input });
    },
    /** GET /api/api-keys: every key, revoked ones included, newest first (not paginated). */
    list() {
      return http.send<ApiKey[]>({ method: 'GET', path: '/api/api-keys' });
    },
    /** DELETE /api/api-keys/:id. */
    async revoke(keyId: string): Promise<void> {
      await http.send({ method: 'DELETE', path: `/api/api-keys/${id(keyId)}` });
    },
  };
}
