import type {
  CreatePricingRuleInput,
  CreateServiceInput,
  UpdatePricingRuleInput,
  UpdateServiceInput,
} from '@meter/core';
import type { Http } from './http.js';
import type { PageParams, PricingRule, Service } from './types.js';

const id = encodeURIComponent;

export function servicesResource(http: Http) {
  return {
    /** POST /api/services; a webhook secret is generated when none is given. */
    create(input: CreateServiceInput) {
      return http.send<Service>({ method: 'POST', path: '/api/services', body: input });
    },
    /** GET /api/services. */
    list(params: PageParams = {}) {
      return http.list<Service>('/api/services', { ...params });
    },
    /** GET /api/services/:id. */
    get(serviceId: string) {
      return http.send<Service>({ method: 'GET', path: `/api/services/${id(serviceId)}` });
    },
    /** PUT /api/services/:id: only the fields given change. */
    update(serviceId: string, input: UpdateServiceInput) {
      return http.send<Service>({ method: 'PUT', path: `/api/services/${id(serviceId)}`, body: input });
    },
    /** DELETE /api/services/:id. */
    async delete(serviceId: string): Promise<void> {
      await http.send({ method: 'DELETE', path: `/api/services/${id(serviceId)}` });
    },
    /** POST /api/services/:id/rotate-secret: the service with its new webhook secret. */
    rotateSecret(serviceId: string) {
      return http.send<Service>({ method: 'POST', path: `/api/services/${id(serviceId)}/rotate-secret` });
    },
  };
}

export function pricingRulesResource(http: Http) {
  return {
    /** POST /api/services/:id/pricing-rules. */
    create(serviceId: string, input: CreatePricingRuleInput) {
      return http.send<PricingRule>({
        method: 'POST',
        path: `/api/services/${id(serviceId)}/pricing-rules`,
        body: input,
      });
    },
    /** GET /api/services/:id/pricing-rules: every rule of the service (not paginated). */
    list(serviceId: string) {
      return http.send<PricingRule[]>({
        method: 'GET',
        path: `/api/services/${id(serviceId)}/pricing-rules`,
      });
    },
    /** GET /api/pricing-rules/:id. */
    get(ruleId: string) {
      return http.send<PricingRule>({ method: 'GET', path: `/api/pricing-rules/${id(ruleId)}` });
    },
    /** PUT /api/pricing-rules/:id (name, unitName, pricingModel, price, active). */
    update(ruleId: string, input: UpdatePricingRuleInput) {
      return http.send<PricingRule>({ method: 'PUT', path: `/api/pricing-rules/${id(ruleId)}`, body: input });
    },
    /** DELETE /api/pricing-rules/:id. */
    async delete(ruleId: string): Promise<void> {
      await http.send({ method: 'DELETE', path: `/api/pricing-rules/${id(ruleId)}` });
    },
  };
}
