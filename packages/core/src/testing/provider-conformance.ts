import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeterError } from '../domain/errors.js';
import type { PaymentRequest } from '../domain/types.js';
import type { ChannelProvider } from '../ports/channel-provider.js';
import type { MeterStore } from '../ports/meter-store.js';
import type { MeterEvents } from '../service/events.js';
import { createMeter, type Meter } from '../service/meter.js';

/** A provider to test, with a way to settle, expire or break its settlement side. */
export interface ProviderUnderTest {
  provider: ChannelProvider;
  /** A fresh store for the suite's meter; payment requests are credited through it. */
  store: MeterStore;
  /**
   * Makes the request paid on the settlement side: simulate-paid for the simulated provider,
   * a payment from another node for a live one. Resolves once the payment has settled.
   */
  pay(request: PaymentRequest, meter: Meter): Promise<void>;
  /** Optional: makes the request's invoice expire on the settlement side. */
  expire?(request: PaymentRequest): Promise<void>;
  /** Optional: cancels the request's invoice on the settlement side. */
  cancel?(request: PaymentRequest): Promise<void>;
  /** Optional: breaks the settlement side in one way until the returned function restores it. */
  outage?(kind: ProviderOutage): Promise<() => Promise<void>>;
  /** Releases everything setup() made, including the store. */
  teardown(): Promise<void>;
}

export type ProviderOutage = 'down' | 'slow' | 'error';

export interface ProviderConformanceOptions {
  /** The describe block's name, e.g. "liveProvider on fake nodes". */
  name: string;
  setup(): Promise<ProviderUnderTest>;
  /**
   * What the settlement side can be made to do, declared up front so the suite registers
   * exactly the tests that apply (nothing is skipped at run time). A provider with no node
   * (the simulated one) has no invoice to expire or cancel and no settlement side to break.
   * Each flag set here MUST be backed by the matching ProviderUnderTest method.
   */
  settlement: { expire: boolean; cancel: boolean; outages: boolean };
}

const OUTAGE_CODES: Record<ProviderOutage, string> = {
  down: 'provider_unavailable',
  slow: 'provider_timeout',
  error: 'provider_error',
};

/**
 * Registers the ChannelProvider conformance suite with vitest: a provider reports `paid` only
 * for settled payments, the meter then credits exactly once however many verifies race,
 * expired and cancelled invoices are never credited, and failures of the settlement side
 * surface as the provider error codes with nothing credited. Call it once per provider.
 */
export function runProviderConformance(options: ProviderConformanceOptions): void {
  describe(options.name, () => {
    let sut: ProviderUnderTest;
    let meter: Meter;
    let developerId: string;
    let counter = 0;
    const funded: MeterEvents['balance.funded'][] = [];

    beforeAll(async () => {
      sut = await options.setup();
      meter = createMeter({ store: sut.store, provider: sut.provider });
      meter.on('balance.funded', (event) => funded.push(event));
      const dev = await meter.registerDeveloper({
        email: `provider-conformance-${Date.now()}@example.com`,
        password: 'correct horse battery',
        name: 'Provider conformance',
      });
      developerId = dev.id;
    });
    afterAll(async () => {
      await meter?.idle();
      await sut?.teardown();
    });

    /** A new customer per test keeps balances apart. */
    async function newRequest(amount = '10'): Promise<PaymentRequest> {
      const customer = await meter.createCustomer(developerId, { externalId: `cus-${++counter}` });
      return meter.createPaymentRequest(developerId, { customerId: customer.id, amount, asset: 'CKB' });
    }
    const balance = (r: PaymentRequest) => meter.getBalance(developerId, r.customerId, 'CKB');
    const fundedFor = (r: PaymentRequest) => funded.filter((e) => e.paymentRequest.id === r.id);
    const stored = async (r: PaymentRequest) => (await sut.store.getPaymentRequest(developerId, r.id))!;

    it('declares its mode, currency and invoice lifetime consistently', () => {
      const { provider } = sut;
      expect(['simulated', 'live']).toContain(provider.mode);
      expect(provider.allowsSimulatedPayment).toBe(provider.mode === 'simulated');
      expect(Number.isInteger(provider.invoiceExpirySecs) && provider.invoiceExpirySecs > 0).toBe(true);
      expect(provider.currency.length).toBeGreaterThan(0);
    });

    it('creates a distinct payment for every request, expiring with it', async () => {
      const [a, b] = await Promise.all([newRequest('1'), newRequest('1')]);
      expect(a!.paymentUri).not.toBe(b!.paymentUri);
      if (a!.paymentHash !== null) expect(a!.paymentHash).not.toBe(b!.paymentHash);
      expect(a!.provider).toBe(sut.provider.mode);
      const lifetime = a!.expiresAt.getTime() - a!.createdAt.getTime();
      expect(lifetime).toBe(sut.provider.invoiceExpirySecs * 1000);
    });

    it('reports an unpaid request as pending, and verify credits nothing', async () => {
      const request = await newRequest();
      const check = await sut.provider.checkPayment(request);
      expect(check.status).toBe('pending');
      expect(typeof check.invoiceStatus).toBe('string');
      const verified = await meter.verifyPayment(developerId, request.id);
      expect(verified.verification).toMatchObject({ paid: false, alreadyPaid: false });
      expect(verified.paymentRequest.status).toBe('pending');
      expect((await balance(request)).totalFunded).toBe(0n);
      expect(fundedFor(request)).toHaveLength(0);
    });

    it('credits a paid request exactly once however many verifies race, and emits balance.funded once', async () => {
      const request = await newRequest('12.5');
      await sut.pay(request, meter);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => meter.verifyPayment(developerId, request.id)),
      );
      for (const r of results) expect(r.verification.paid).toBe(true);
      expect((await stored(request)).status).toBe('paid');
      const b = await balance(request);
      expect(b.totalFunded).toBe(1_250_000_000n);
      expect(b.available).toBe(1_250_000_000n);
      expect(fundedFor(request)).toHaveLength(1);
      const again = await sut.provider.checkPayment(await stored(request));
      expect(again.status).toBe('paid');
      expect(await meter.checkInvariants(developerId)).toEqual([]);
    });

    it('paying one request does not pay another', async () => {
      const [paid, other] = await Promise.all([newRequest('2'), newRequest('2')]);
      await sut.pay(paid!, meter);
      expect((await sut.provider.checkPayment(other!)).status).toBe('pending');
      const verified = await meter.verifyPayment(developerId, other!.id);
      expect(verified.verification.paid).toBe(false);
      expect((await balance(other!)).totalFunded).toBe(0n);
    });

    it('refuses simulate-paid unless the provider is simulated', async () => {
      const request = await newRequest();
      const attempt = meter.simulatePaid(developerId, request.id);
      if (sut.provider.allowsSimulatedPayment) {
        await expect(attempt).resolves.toMatchObject({ verification: { paid: true } });
      } else {
        await expect(attempt).rejects.toMatchObject({ code: 'forbidden' });
        expect((await balance(request)).totalFunded).toBe(0n);
      }
    });

    // Registered only where they apply: see ProviderConformanceOptions.settlement.
    const when = (applies: boolean) => (applies ? it : () => {});

    when(options.settlement.expire)('never credits an invoice that expired unpaid', async () => {
      if (!sut.expire) throw new Error('settlement.expire is set but setup() returned no expire()');
      const request = await newRequest();
      await sut.expire(request);
      expect((await sut.provider.checkPayment(request)).status).toBe('expired');
      await expect(meter.verifyPayment(developerId, request.id)).rejects.toMatchObject({ code: 'expired' });
      expect((await stored(request)).status).toBe('expired');
      expect((await balance(request)).totalFunded).toBe(0n);
      expect(fundedFor(request)).toHaveLength(0);
    });

    when(options.settlement.cancel)('never credits a cancelled invoice', async () => {
      if (!sut.cancel) throw new Error('settlement.cancel is set but setup() returned no cancel()');
      const request = await newRequest();
      await sut.cancel(request);
      expect((await sut.provider.checkPayment(request)).status).toBe('cancelled');
      await expect(meter.verifyPayment(developerId, request.id)).rejects.toMatchObject({ code: 'conflict' });
      expect((await stored(request)).status).toBe('cancelled');
      expect((await balance(request)).totalFunded).toBe(0n);
    });

    for (const kind of ['down', 'slow', 'error'] as const) {
      when(options.settlement.outages)(
        `reports a settlement side that is ${kind} as ${OUTAGE_CODES[kind]} and credits nothing`,
        async () => {
          if (!sut.outage) throw new Error('settlement.outages is set but setup() returned no outage()');
          const request = await newRequest();
          await sut.pay(request, meter);
          const restore = await sut.outage(kind);
          try {
            const err = await meter.verifyPayment(developerId, request.id).catch((e: unknown) => e);
            expect(err).toBeInstanceOf(MeterError);
            expect((err as MeterError).code).toBe(OUTAGE_CODES[kind]);
            expect((err as MeterError).message.length).toBeGreaterThan(10);
            await expect(
              meter.createPaymentRequest(developerId, { customerId: request.customerId, amount: '1' }),
            ).rejects.toMatchObject({ code: OUTAGE_CODES[kind] });
            expect((await stored(request)).status).toBe('pending');
            expect((await balance(request)).totalFunded).toBe(0n);
          } finally {
            await restore();
          }
          const verified = await meter.verifyPayment(developerId, request.id);
          expect(verified.verification).toMatchObject({ paid: true, alreadyPaid: false });
          expect(fundedFor(request)).toHaveLength(1);
        },
      );
    }
  });
}
