import { invalid, MeterError, notFound } from '../domain/errors.js';
import { parseAmount } from '../domain/money.js';
import { effectiveStatus } from '../domain/payment-request-state.js';
import type { MeteredService, PaymentRequest, PaymentStatus } from '../domain/types.js';
import { balanceFundedPayload } from '../domain/webhook-events.js';
import type { CreditOutcome, Page, PageQuery } from '../ports/meter-store.js';
import type { ServiceContext } from './context.js';
import { type CreatePaymentRequestInput, createPaymentRequestSchema, parseInput } from './schemas.js';

export interface PaymentConfirmation {
  paymentRequest: PaymentRequest;
  verification: { paid: boolean; alreadyPaid: boolean; invoiceStatus?: string };
}

export function paymentOperations(ctx: ServiceContext) {
  const { store, provider, clock, ids, events, webhooks } = ctx;

  async function requireRequest(developerId: string, id: string): Promise<PaymentRequest> {
    const request = await store.getPaymentRequest(developerId, id);
    if (!request) throw notFound('Payment request');
    return request;
  }

  /** Reports the status a reader should see: an unpaid request past expiresAt reads as expired. */
  function present(request: PaymentRequest): PaymentRequest {
    return { ...request, status: effectiveStatus(request, clock.now()) };
  }

  /**
   * Credits once. The balance.funded event (and a delivery for each service that opted in to
   * it) is written in the credit transaction, so it exists exactly when the credit does.
   */
  async function allServices(developerId: string): Promise<MeteredService[]> {
    const all: MeteredService[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.listServices(developerId, { limit: 1000, cursor });
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return all;
  }

  async function credit(request: PaymentRequest, enforceExpiry: boolean): Promise<CreditOutcome> {
    const now = clock.now();
    const eventId = ids.newId('evt');
    const [customer, services] = await Promise.all([
      store.getCustomer(request.developerId, request.customerId),
      allServices(request.developerId),
    ]);
    const body = { eventId, request, customerExternalId: customer?.externalId ?? null, now };
    const payload = balanceFundedPayload(body);
    const deliveries = services
      .filter((s) => s.webhookUrl && s.webhookEvents.includes('balance.funded'))
      .map((s) => {
        const deliveryId = ids.newId('whd');
        const deliveryPayload = balanceFundedPayload({ ...body, deliveryId });
        return { deliveryId, serviceId: s.id, eventType: 'balance.funded', payload: deliveryPayload };
      });
    const result = await store.creditPaymentRequest({
      developerId: request.developerId,
      paymentRequestId: request.id,
      ledgerEntryId: ids.newId('led'),
      now,
      enforceExpiry,
      event: { id: eventId, payload },
      webhooks: deliveries,
    });
    if (result.outcome === 'credited') {
      events.emit('balance.funded', { paymentRequest: result.request, balance: result.balance });
      for (const d of deliveries) webhooks.dispatch(d.deliveryId);
    }
    return result;
  }

  function confirmation(result: CreditOutcome, invoiceStatus?: string): PaymentConfirmation {
    if (result.outcome === 'not_found') throw notFound('Payment request');
    if (result.outcome === 'expired') throw new MeterError('expired', 'The payment request has expired');
    if (result.outcome === 'cancelled') throw new MeterError('conflict', 'The payment request was cancelled');
    return {
      paymentRequest: present(result.request),
      verification: {
        paid: true,
        alreadyPaid: result.outcome === 'already_paid',
        ...(invoiceStatus ? { invoiceStatus } : {}),
      },
    };
  }

  return {
    /** Creates a request with the provider (a simulated URI or a live invoice); it expires after the provider's invoice lifetime. */
    async createPaymentRequest(
      developerId: string,
      input: CreatePaymentRequestInput,
    ): Promise<PaymentRequest> {
      const data = parseInput(createPaymentRequestSchema, input);
      const amount = parseAmount(data.amount, data.asset);
      if (amount <= 0n) throw invalid('amount must be greater than zero');
      const customer = await store.getCustomer(developerId, data.customerId);
      if (!customer) throw notFound('Customer');
      const id = ids.newId('pr');
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + provider.invoiceExpirySecs * 1000);
      const created = await provider.createPayment({
        paymentRequestId: id,
        amount,
        asset: data.asset,
        expiresAt,
        description: `Prepaid balance for ${customer.externalId}`,
      });
      return store.createPaymentRequest({
        id,
        developerId,
        customerId: customer.id,
        amount,
        asset: data.asset,
        provider: provider.mode,
        paymentUri: created.paymentUri,
        paymentHash: created.paymentHash,
        expiresAt,
        metadata: data.metadata ?? {},
        createdAt: now,
      });
    },

    async listPaymentRequests(
      developerId: string,
      filter: { status?: PaymentStatus | undefined; customerId?: string | undefined },
      page: PageQuery,
    ): Promise<Page<PaymentRequest>> {
      const result = await store.listPaymentRequests(developerId, { ...filter, now: clock.now() }, page);
      return { ...result, items: result.items.map(present) };
    },

    async getPaymentRequest(developerId: string, id: string): Promise<PaymentRequest> {
      return present(await requireRequest(developerId, id));
    },

    /** Confirms a simulated request as paid and credits the balance, exactly once. 403 for live requests. */
    async simulatePaid(developerId: string, id: string): Promise<PaymentConfirmation> {
      const request = await requireRequest(developerId, id);
      if (request.provider !== 'simulated' || !provider.allowsSimulatedPayment) {
        throw new MeterError('forbidden', 'simulate-paid is only available for simulated payment requests');
      }
      return confirmation(await credit(request, true));
    },

    /**
     * Asks the provider whether the request is paid; credits the balance exactly once when it is.
     * A live request is never credited before the provider reports it paid.
     */
    async verifyPayment(developerId: string, id: string): Promise<PaymentConfirmation> {
      const request = await requireRequest(developerId, id);
      if (request.status === 'paid') return confirmation({ outcome: 'already_paid', request });
      if (request.status !== 'pending') return confirmation({ outcome: request.status, request });
      if (request.provider !== provider.mode) {
        throw new MeterError(
          'forbidden',
          `this ${request.provider} request cannot be verified in ${provider.mode} mode`,
        );
      }
      const check = await provider.checkPayment(request);
      if (check.status === 'paid') return confirmation(await credit(request, false), check.invoiceStatus);
      if (check.status === 'pending') {
        if (effectiveStatus(request, clock.now()) === 'expired') {
          await store.closePaymentRequest(developerId, id, 'expired');
          throw new MeterError('expired', 'The payment request has expired');
        }
        return {
          paymentRequest: present(request),
          verification: { paid: false, alreadyPaid: false, invoiceStatus: check.invoiceStatus },
        };
      }
      // The provider says the invoice can no longer be paid: close the request (unless a racing
      // call credited it meanwhile) and answer as for any closed request: 410 or 409.
      const closed = await store.closePaymentRequest(developerId, id, check.status);
      if (!closed) {
        const current = await requireRequest(developerId, id);
        if (current.status === 'paid') return confirmation({ outcome: 'already_paid', request: current });
      }
      return confirmation({ outcome: check.status, request });
    },
  };
}
