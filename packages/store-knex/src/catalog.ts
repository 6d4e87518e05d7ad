import { MeterError, type MeterStore, type PricingRulePatch, type ServicePatch } from '@meter/core';
import { pageOf, type StoreContext, uniqueOr } from './context.js';
import { activeKey, patchColumns, type Row, toPricingRule, toService } from './rows.js';

type CatalogStore = Pick<
  MeterStore,
  | 'createService'
  | 'listServices'
  | 'getService'
  | 'getServiceBySlug'
  | 'updateService'
  | 'deleteService'
  | 'createPricingRule'
  | 'listPricingRules'
  | 'getPricingRule'
  | 'updatePricingRule'
  | 'deletePricingRule'
  | 'findActivePricingRule'
>;

const slugTaken = () => new MeterError('conflict', 'A service with this slug already exists');
const activeRuleTaken = () =>
  new MeterError('conflict', 'An active pricing rule already exists for this service, metric and asset');

const SERVICE_COLUMNS: { [K in keyof ServicePatch]-?: string } = {
  name: 'name',
  slug: 'slug',
  description: 'description',
  webhookUrl: 'webhook_url',
  webhookSecret: 'webhook_secret',
  webhookEvents: 'webhook_events',
  defaultAsset: 'default_asset',
};

const RULE_COLUMNS: { [K in keyof PricingRulePatch]-?: string } = {
  name: 'name',
  unitName: 'unit_name',
  pricingModel: 'pricing_model',
  price: 'price',
  active: 'active_key',
};

/** Metered services and their pricing rules. */
export function catalogStore(ctx: StoreContext): CatalogStore {
  const { knex } = ctx;

  async function getService(developerId: string, id: string) {
    const row = (await knex('services').where({ id, developer_id: developerId }).first()) as Row | undefined;
    return row ? toService(row) : null;
  }

  async function getPricingRule(developerId: string, id: string) {
    const row = (await knex('pricing_rules').where({ id, developer_id: developerId }).first()) as
      | Row
      | undefined;
    return row ? toPricingRule(row) : null;
  }

  return {
    async createService(input) {
      await uniqueOr(
        () =>
          knex('services').insert({
            id: input.id,
            developer_id: input.developerId,
            name: input.name,
            slug: input.slug,
            description: input.description,
            webhook_url: input.webhookUrl,
            webhook_secret: input.webhookSecret,
            webhook_events: input.webhookEvents.join(','),
            default_asset: input.defaultAsset,
            created_at: input.createdAt.getTime(),
            updated_at: input.createdAt.getTime(),
          }),
        slugTaken,
      );
      return { ...input, updatedAt: input.createdAt };
    },

    listServices(developerId, page) {
      return pageOf(knex('services').where({ developer_id: developerId }), page, toService);
    },

    getService,

    async getServiceBySlug(developerId, slug) {
      const row = (await knex('services').where({ developer_id: developerId, slug }).first()) as
        | Row
        | undefined;
      return row ? toService(row) : null;
    },

    async updateService(developerId, id, patch, now) {
      const changed = await uniqueOr(
        () =>
          knex('services')
            .where({ id, developer_id: developerId })
            .update({
              ...patchColumns(patch, SERVICE_COLUMNS, { webhookEvents: (events) => events.join(',') }),
              updated_at: now.getTime(),
            }),
        slugTaken,
      );
      return changed > 0 ? getService(developerId, id) : null;
    },

    deleteService(developerId, id) {
      return ctx.transact(async (trx) => {
        await trx('pricing_rules').where({ service_id: id, developer_id: developerId }).del();
        return (await trx('services').where({ id, developer_id: developerId }).del()) > 0;
      });
    },

    async createPricingRule(input) {
      await uniqueOr(
        () =>
          knex('pricing_rules').insert({
            id: input.id,
            developer_id: input.developerId,
            service_id: input.serviceId,
            name: input.name,
            metric_key: input.metricKey,
            unit_name: input.unitName,
            pricing_model: input.pricingModel,
            price: input.price,
            asset: input.asset,
            active_key: activeKey(input),
            created_at: input.createdAt.getTime(),
            updated_at: input.createdAt.getTime(),
          }),
        () =>
          input.active ? activeRuleTaken() : new MeterError('conflict', 'The pricing rule already exists'),
      );
      return { ...input, updatedAt: input.createdAt };
    },

    async listPricingRules(developerId, serviceId) {
      const rows = (await knex('pricing_rules')
        .where({ developer_id: developerId, service_id: serviceId })
        .orderBy('id', 'desc')) as Row[];
      return rows.map(toPricingRule);
    },

    getPricingRule,

    async updatePricingRule(developerId, id, patch, now) {
      // service, metric and asset never change, so the active key is computed from the stored rule.
      const current = await getPricingRule(developerId, id);
      if (!current) return null;
      const toKey = (active: boolean): string | null => activeKey({ ...current, active });
      const changed = await uniqueOr(
        () =>
          knex('pricing_rules')
            .where({ id, developer_id: developerId })
            .update({ ...patchColumns(patch, RULE_COLUMNS, { active: toKey }), updated_at: now.getTime() }),
        activeRuleTaken,
      );
      return changed > 0 ? getPricingRule(developerId, id) : null;
    },

    async deletePricingRule(developerId, id) {
      return (await knex('pricing_rules').where({ id, developer_id: developerId }).del()) > 0;
    },

    async findActivePricingRule(serviceId, metricKey, asset) {
      const key = activeKey({ serviceId, metricKey, asset, active: true });
      const row = (await knex('pricing_rules').where({ active_key: key }).first()) as Row | undefined;
      return row ? toPricingRule(row) : null;
    },
  };
}
