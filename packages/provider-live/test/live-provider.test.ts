import { createMeter, type Meter, MeterError } from '@meter/core';
import { fakeClock } from '@meter/core/testing';
import { openStore } from '@meter/store-knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveProvider } from '../src/index.js';
import { type FakeNetwork, payFromPayer, rpc, startFakeNetwork, waitFor } from './support/index.js';

describe('liveProvider', () => {
  let network: FakeNetwork;
  let meter: Meter;
  let developerId: string;
  let customerId: string;
  const clock = fakeClock();
  const funded: string[] = [];

  beforeAll(async () => {
    network = await startFakeNetwork();
    meter = createMeter({
      store: await openStore('sqlite::memory:'),
      provider: liveProvider({ rpcUrl: network.payee.url, invoiceExpirySecs: 600, timeoutMs: 2000 }),
      clock,
    });
    meter.on('balance.funded', (e) => funded.push(e.paymentRequest.id));
    developerId = (
      await meter.registerDeveloper({
        email: 'live@example.com',
        password: 'correct horse battery',
        name: 'Live',
      })
    ).id;
    customerId = (await meter.createCustomer(developerId, { externalId: 'acme' })).id;
  });
  afterAll(async () => {
    await meter?.close();
    await network?.close();
  });

  const newRequest = (amount = '10') =>
    meter.createPaymentRequest(developerId, { customerId, amount, asset: 'CKB' });

  it('creates the invoice with new_invoice: hex shannons, the configured currency and expiry', async () => {
    const request = await newRequest('10.5');
    const call = network.payee.calls.filter((c) => c.method === 'new_invoice').at(-1)!;
    expect(call.params).toMatchObject({
      amount: '0x3e95ba80',
      currency: 'Fibt',
      description: 'Prepaid balance for acme',
    });
    const expiry = Number(BigInt((call.params as { expiry: string }).expiry));
    expect(expiry).toBeLessThanOrEqual(600);
    expect(expiry).toBeGreaterThan(590);
    expect(request.paymentUri.startsWith('fibt10500000001')).toBe(true);
    expect(request.paymentHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(network.payee.invoices.get(request.paymentHash!)?.address).toBe(request.paymentUri);
    expect(request).toMatchObject({ provider: 'live', status: 'pending' });
  });

  it('verifies with get_invoice by payment hash: Open and Received stay pending, Paid credits once', async () => {
    const request = await newRequest('3');
    expect((await meter.verifyPayment(developerId, request.id)).verification).toEqual({
      paid: false,
      alreadyPaid: false,
      invoiceStatus: 'Open',
    });
    expect(network.payee.calls.at(-1)).toEqual({
      method: 'get_invoice',
      params: { payment_hash: request.paymentHash },
    });

    network.payee.holdPayments = true;
    await rpc(network.payer.url, 'send_payment', { invoice: request.paymentUri });
    await waitFor(() => network.payee.invoices.get(request.paymentHash!)?.status === 'Received');
    const held = await meter.verifyPayment(developerId, request.id);
    expect(held.verification).toEqual({ paid: false, alreadyPaid: false, invoiceStatus: 'Received' });
    expect((await meter.getBalance(developerId, customerId)).totalFunded).toBe(0n);

    network.payee.holdPayments = false;
    await waitFor(() => network.payee.invoices.get(request.paymentHash!)?.status === 'Paid');
    const before = (await meter.getBalance(developerId, customerId)).totalFunded;
    const [a, b] = await Promise.all([
      meter.verifyPayment(developerId, request.id),
      meter.verifyPayment(developerId, request.id),
    ]);
    expect([a.verification.alreadyPaid, b.verification.alreadyPaid].sort()).toEqual([false, true]);
    expect((await meter.getBalance(developerId, customerId)).totalFunded - before).toBe(300_000_000n);
    expect(funded.filter((id) => id === request.id)).toHaveLength(1);
  });

  it('still credits a request whose invoice was paid in time but verified after expiresAt', async () => {
    const request = await newRequest('1');
    await payFromPayer(network, request.paymentUri);
    clock.advance(601_000);
    try {
      const result = await meter.verifyPayment(developerId, request.id);
      expect(result.verification).toMatchObject({ paid: true, alreadyPaid: false, invoiceStatus: 'Paid' });
    } finally {
      clock.advance(-601_000);
    }
  });

  it('never credits when the node reports an amount other than the request', async () => {
    const request = await newRequest('2');
    await payFromPayer(network, request.paymentUri);
    const record = network.payee.invoices.get(request.paymentHash!)!;
    record.data = { ...record.data, amount: 1n };
    const err = await meter.verifyPayment(developerId, request.id).catch((e: unknown) => e as MeterError);
    expect(err).toMatchObject({ code: 'provider_error' });
    expect((err as MeterError).message).toContain('amount differs');
    expect((await meter.getPaymentRequest(developerId, request.id)).status).toBe('pending');
  });

  it('refuses assets other than CKB and amounts a CKB invoice cannot carry', async () => {
    const provider = liveProvider({ rpcUrl: network.payee.url });
    const input = {
      paymentRequestId: 'pr_x',
      amount: 1n,
      expiresAt: new Date(Date.now() + 60_000),
      description: 'x',
    };
    await expect(provider.createPayment({ ...input, asset: 'USDI' as never })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(provider.createPayment({ ...input, asset: 'CKB', amount: 2n ** 64n })).rejects.toMatchObject(
      {
        code: 'validation_error',
      },
    );
  });

  it('passes the node message on when the node refuses the invoice currency', async () => {
    const mainnet = liveProvider({ rpcUrl: network.payee.url, currency: 'Fibb' });
    const err = (await mainnet
      .createPayment({
        paymentRequestId: 'pr_y',
        amount: 1n,
        asset: 'CKB',
        expiresAt: new Date(Date.now() + 60_000),
        description: 'x',
      })
      .catch((e: unknown) => e)) as MeterError;
    expect(err).toBeInstanceOf(MeterError);
    expect(err.code).toBe('provider_error');
    expect(err.message).toBe(
      'The payee node refused new_invoice: Currency must be Fibt with the chain network',
    );
    expect(err.details).toMatchObject({
      nodeMessage: 'Currency must be Fibt with the chain network',
      hint: { family: 'currency_mismatch' },
    });
  });

  it('validates its options', () => {
    expect(() => liveProvider({ rpcUrl: network.payee.url, currency: 'CKB' })).toThrow(/Fibt/);
    expect(() => liveProvider({ rpcUrl: network.payee.url, invoiceExpirySecs: 0 })).toThrow(/positive/);
    const p = liveProvider({ rpcUrl: network.payee.url });
    expect(p).toMatchObject({
      mode: 'live',
      currency: 'Fibt',
      invoiceExpirySecs: 3600,
      allowsSimulatedPayment: false,
    });
  });
});
