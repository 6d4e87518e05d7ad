import { serializeHealth, serializePreflight, serializeProof } from '../channel-serializers.js';
import type { Route } from '../router.js';

/** Operator diagnostics of SPEC.md endpoints 5-8. */
export const channelRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/channel/health',
    auth: 'jwt',
    async handle({ meter }) {
      return { body: serializeHealth(await meter.channelHealth()) };
    },
  },
  {
    method: 'POST',
    path: '/api/channel/preflight',
    auth: 'jwt',
    async handle({ meter, json }) {
      return { body: serializePreflight(await meter.preflightInvoice(json() as never)) };
    },
  },
  {
    method: 'POST',
    path: '/api/channel/translate-error',
    auth: 'jwt',
    async handle({ meter, json }) {
      return { body: meter.translateNodeError(json() as never) };
    },
  },
  {
    method: 'GET',
    path: '/api/channel/live-proof',
    auth: 'jwt',
    async handle({ meter }) {
      return { body: serializeProof(await meter.liveProof()) };
    },
  },
];
