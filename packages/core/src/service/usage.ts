import { MeterError, notFound } from '../domain/errors.js';
import { computeCharge } from '../domain/pricing.js';
import type { UsageEvent, UsageStatus } from '../domain/types.js';
import { type UsageResult, usageFingerprint, usageResult } from '../domain/usage.js';
import { usageChargedPayload } from '../domain/webhook-events.js';
import type { Page, PageQuery } from '../ports/meter-store.js';
import type { ServiceContext } from './context.js';
import { parseInput, type RecordUsageInput, recordUsageSchema } from './schemas.js';

const idempotencyConflict = () =>
  new MeterError(
    'idempotency_conflict',
    'This idempotencyKey was already used with a different service, customer, metricKey or quantity',
  );

export function usageOperations({ store, clock, ids, events, webhooks }: ServiceContext) {
  return {
    /**
     * Charges usage against the customer's prepaid balance, or records the attempt as
     * `insufficient_balance` (a normal result, not an error). Replaying a charged
     * idempotency key returns the original result with `idempotent: true`.
     */
    async recordUsage(developerId: string, input: RecordUsageInput): Promise<UsageResult> {
      const data = parseInput(recordUsageSchema, input);
      const [service, customer] = await Promise.all([
        store.getServiceBySlug(developerId, data.service),
        store.getCustomerByExternalId(developerId, data.customer),
      ]);
      if (!service) throw notFound(`Service "${data.service}"`);
      if (!customer) throw notFound(`Customer "${data.customer}"`);
      const fingerprint = usageFingerprint({
        serviceId: service.id,
        customerId: customer.id,
        metricKey: data.metricKey,
        quantity: data.quantity,
      });
      const rule = await store.findActivePricingRule(service.id, data.metricKey, service.defaultAsset);
      if (!rule) {
        // A replay is still answered after its rule was deactivated; only new usage needs a rule.
        const earlier = await store.findChargedUsage(developerId, data.idempotencyKey);
        if (earlier?.fingerprint === fingerprint) return usageResult(earlier.event, true);
        if (earlier) throw idempotencyConflict();
        throw notFound(`Active pricing rule for metric "${data.metricKey}" on service "${service.slug}"`);
      }

      const amount = computeCharge(rule, data.quantity);
      const now = clock.now();
      const usageEventId = ids.newId('use');
      const deliveryId =
        service.webhookUrl && service.webhookEvents.includes('usage.charged') ? ids.newId('whd') : null;
      const outcome = await store.chargeUsage({
        developerId,
        usageEventId,
        ledgerEntryId: ids.newId('led'),
        service,
        customer,
        pricingRuleId: rule.id,
        metricKey: data.metricKey,
        quantity: data.quantity,
        amount,
        asset: rule.asset,
        idempotencyKey: data.idempotencyKey,
        fingerprint,
        metadata: data.metadata ?? {},
        now,
        webhook: deliveryId
          ? {
              deliveryId,
              eventType: 'usage.charged',
              payload: usageChargedPayload({
                deliveryId,
                usageEventId,
                customer: customer.externalId,
                service: service.slug,
                metricKey: data.metricKey,
                quantity: data.quantity,
                amount,
                asset: rule.asset,
                createdAt: now,
              }),
            }
          : null,
      });

      if (outcome.outcome === 'idempotency_conflict') throw idempotencyConflict();
      if (outcome.outcome === 'charged' && !outcome.replay) {
        if (outcome.deliveryId) webhooks.dispatch(outcome.deliveryId);
        events.emit('usage.charged', { event: outcome.event });
      }
      return usageResult(outcome.event, outcome.outcome === 'charged' && outcome.replay);
    },

    listUsageEvents(
      developerId: string,
      filter: {
        status?: UsageStatus | undefined;
        customerId?: string | undefined;
        serviceId?: string | undefined;
      },
      page: PageQuery,
    ): Promise<Page<UsageEvent>> {
      return store.listUsageEvents(developerId, filter, page);
    },
  };
}
