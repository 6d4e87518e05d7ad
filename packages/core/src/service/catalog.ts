import { notFound } from '../domain/errors.js';
import { DEFAULT_ASSET } from '../domain/money.js';
import { normalizePrice } from '../domain/pricing.js';
import type { MeteredService, PricingRule } from '../domain/types.js';
import type { Page, PageQuery } from '../ports/meter-store.js';
import type { ServiceContext } from './context.js';
import { generateWebhookSecret } from './credentials.js';
import {
  type CreatePricingRuleInput,
  type CreateServiceInput,
  createPricingRuleSchema,
  createServiceSchema,
  parseInput,
  type UpdatePricingRuleInput,
  type UpdateServiceInput,
  updatePricingRuleSchema,
  updateServiceSchema,
} from './schemas.js';

/** Metered services and their pricing rules. */
export function catalogOperations({ store, clock, ids }: ServiceContext) {
  async function requireService(developerId: string, id: string): Promise<MeteredService> {
    const service = await store.getService(developerId, id);
    if (!service) throw notFound('Service');
    return service;
  }

  return {
    async createService(developerId: string, input: CreateServiceInput): Promise<MeteredService> {
      const data = parseInput(createServiceSchema, input);
      return store.createService({
        id: ids.newId('svc'),
        developerId,
        name: data.name,
        slug: data.slug,
        description: data.description ?? null,
        webhookUrl: data.webhookUrl ?? null,
        webhookSecret: data.webhookSecret ?? generateWebhookSecret(),
        webhookEvents: data.webhookEvents ?? ['usage.charged'],
        defaultAsset: data.defaultAsset ?? DEFAULT_ASSET,
        createdAt: clock.now(),
      });
    },

    listServices(developerId: string, page: PageQuery): Promise<Page<MeteredService>> {
      return store.listServices(developerId, page);
    },

    getService: requireService,

    async getServiceBySlug(developerId: string, slug: string): Promise<MeteredService> {
      const service = await store.getServiceBySlug(developerId, slug);
      if (!service) throw notFound(`Service "${slug}"`);
      return service;
    },

    async updateService(developerId: string, id: string, input: UpdateServiceInput): Promise<MeteredService> {
      const data = parseInput(updateServiceSchema, input);
      const patch = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
      const updated = await store.updateService(developerId, id, patch, clock.now());
      if (!updated) throw notFound('Service');
      return updated;
    },

    async deleteService(developerId: string, id: string): Promise<void> {
      if (!(await store.deleteService(developerId, id))) throw notFound('Service');
    },

    /** Replaces the webhook secret; deliveries and retries from now on are signed with the new one. */
    async rotateServiceSecret(developerId: string, id: string): Promise<MeteredService> {
      const updated = await store.updateService(
        developerId,
        id,
        { webhookSecret: generateWebhookSecret() },
        clock.now(),
      );
      if (!updated) throw notFound('Service');
      return updated;
    },

    async createPricingRule(
      developerId: string,
      serviceId: string,
      input: CreatePricingRuleInput,
    ): Promise<PricingRule> {
      const data = parseInput(createPricingRuleSchema, input);
      const service = await requireService(developerId, serviceId);
      return store.createPricingRule({
        id: ids.newId('prc'),
        developerId,
        serviceId: service.id,
        name: data.name,
        metricKey: data.metricKey,
        unitName: data.unitName,
        pricingModel: data.pricingModel,
        price: normalizePrice(data.price),
        asset: data.asset ?? service.defaultAsset,
        active: data.active ?? true,
        createdAt: clock.now(),
      });
    },

    async listPricingRules(developerId: string, serviceId: string): Promise<PricingRule[]> {
      await requireService(developerId, serviceId);
      return store.listPricingRules(developerId, serviceId);
    },

    async getPricingRule(developerId: string, id: string): Promise<PricingRule> {
      const rule = await store.getPricingRule(developerId, id);
      if (!rule) throw notFound('Pricing rule');
      return rule;
    },

    async updatePricingRule(
      developerId: string,
      id: string,
      input: UpdatePricingRuleInput,
    ): Promise<PricingRule> {
      const data = parseInput(updatePricingRuleSchema, input);
      const patch = {
        ...Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)),
        ...(data.price !== undefined ? { price: normalizePrice(data.price) } : {}),
      };
      const updated = await store.updatePricingRule(developerId, id, patch, clock.now());
      if (!updated) throw notFound('Pricing rule');
      return updated;
    },

    async deletePricingRule(developerId: string, id: string): Promise<void> {
      if (!(await store.deletePricingRule(developerId, id))) throw notFound('Pricing rule');
    },
  };
}
