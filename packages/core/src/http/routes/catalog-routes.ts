import type { Route } from '../router.js';
import { listResult, pageQuery } from '../router.js';
import { serializePricingRule, serializeService } from '../serializers.js';

export const catalogRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/services',
    auth: 'jwt',
    async handle({ meter, principal, json }) {
      return {
        status: 201,
        body: serializeService(await meter.createService(principal.developerId, json() as never)),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/services',
    auth: 'jwt',
    async handle({ meter, principal, request }) {
      return listResult(
        await meter.listServices(principal.developerId, pageQuery(request.query)),
        serializeService,
      );
    },
  },
  {
    method: 'GET',
    path: '/api/services/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: serializeService(await meter.getService(principal.developerId, params.id!)) };
    },
  },
  {
    method: 'PUT',
    path: '/api/services/:id',
    auth: 'jwt',
    async handle({ meter, principal, params, json }) {
      return {
        body: serializeService(await meter.updateService(principal.developerId, params.id!, json() as never)),
      };
    },
  },
  {
    method: 'DELETE',
    path: '/api/services/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      await meter.deleteService(principal.developerId, params.id!);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    path: '/api/services/:id/rotate-secret',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: serializeService(await meter.rotateServiceSecret(principal.developerId, params.id!)) };
    },
  },
  {
    method: 'POST',
    path: '/api/services/:id/pricing-rules',
    auth: 'jwt',
    async handle({ meter, principal, params, json }) {
      const rule = await meter.createPricingRule(principal.developerId, params.id!, json() as never);
      return { status: 201, body: serializePricingRule(rule) };
    },
  },
  {
    method: 'GET',
    path: '/api/services/:id/pricing-rules',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return {
        body: (await meter.listPricingRules(principal.developerId, params.id!)).map(serializePricingRule),
      };
    },
  },
  {
    method: 'GET',
    path: '/api/pricing-rules/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      return { body: serializePricingRule(await meter.getPricingRule(principal.developerId, params.id!)) };
    },
  },
  {
    method: 'PUT',
    path: '/api/pricing-rules/:id',
    auth: 'jwt',
    async handle({ meter, principal, params, json }) {
      return {
        body: serializePricingRule(
          await meter.updatePricingRule(principal.developerId, params.id!, json() as never),
        ),
      };
    },
  },
  {
    method: 'DELETE',
    path: '/api/pricing-rules/:id',
    auth: 'jwt',
    async handle({ meter, principal, params }) {
      await meter.deletePricingRule(principal.developerId, params.id!);
      return { status: 204 };
    },
  },
];
