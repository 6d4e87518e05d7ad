import { MeterError } from '../../domain/errors.js';
import type { Route } from '../router.js';
import { serializeApiKey, serializeDeveloper } from '../serializers.js';

export const authRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    auth: 'none',
    async handle({ meter, jwt, settings, json }) {
      if (!settings.allowRegistration)
        throw new MeterError('forbidden', 'Registration is turned off on this server');
      const developer = await meter.registerDeveloper(json() as never);
      const { token, expiresAt } = await jwt.issue(developer.id, meter.clock.now());
      return {
        status: 201,
        body: { developer: serializeDeveloper(developer), token, expiresAt: expiresAt.toISOString() },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    auth: 'none',
    async handle({ meter, jwt, json, request, loginLimiter }) {
      const body = json() as { email?: unknown };
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const address = request.remoteAddress;
      const now = meter.clock.now().getTime();
      const wait = loginLimiter.retryAfter(email, address, now);
      if (wait > 0) {
        throw new MeterError('rate_limited', 'Too many failed login attempts; try again later', {
          retryAfter: wait,
        });
      }
      try {
        const developer = await meter.authenticate(body as never);
        loginLimiter.succeed(email);
        const { token, expiresAt } = await jwt.issue(developer.id, meter.clock.now());
        return {
          body: { developer: serializeDeveloper(developer), token, expiresAt: expiresAt.toISOString() },
        };
      } catch (err) {
        if (err instanceof MeterError && err.code === 'invalid_credentials')
          loginLimiter.fail(email, address, now);
        throw err;
      }
    },
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    auth: 'jwt',
    async handle({ meter, principal }) {
      const developer = await meter.getDeveloper(principal.developerId);
      if (!developer) throw new MeterError('unauthorized', 'The account no longer exists');
      return { body: { developer: serializeDeveloper(developer) } };
    },
  },
  {
    method: 'POST',
    path: '/api/api-keys',
    auth: 'jwt',
    async handle({ meter, principal, json }) {
      const { apiKey, key } = await meter.createApiKey(principal.developerId, json() as never);
      return { status: 201, body: { ...serializeApiKey(apiKey), key } };
    },
  },
  {
    method: 'GET',
    path: '/api/api-keys',
    auth: 'jwt',
    async handle({ meter, principal }) {
      return { body: (await meter.listApiKeys(principal.developerId)).map(serializeApiKey) };
    },
  },
  {
    method: 'DELETE',
    path: '/api/api-keys/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      await meter.revokeApiKey(principal.developerId, params.id!);
      return { status: 204 };
    },
  },
];
