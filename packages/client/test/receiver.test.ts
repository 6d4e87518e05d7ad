import {
  type AcceptedEventStore,
  createWebhookReceiver,
  type MeterWebhookEvent,
  memoryEventStore,
} from '@meter/client';
import { describe, expect, it, vi } from 'vitest';
import { NOW, SECRET, signedHeaders, usageCharged } from './support.js';

function setup(options: { store?: AcceptedEventStore; onEvent?: (e: MeterWebhookEvent) => unknown } = {}) {
  const memory = memoryEventStore();
  const onEvent = vi.fn(options.onEvent ?? (() => {}));
  const onError = vi.fn();
  const receiver = createWebhookReceiver({
    secret: SECRET,
    store: options.store ?? memory,
    onEvent: async (event) => {
      await onEvent(event);
    },
    onError,
    now: () => NOW,
  });
  return { receiver, memory, onEvent, onError };
}

describe('createWebhookReceiver', () => {
  const body = usageCharged();

  it('answers 200 after the store accepted the event, then 200 to the same delivery without onEvent', async () => {
    const { receiver, memory, onEvent } = setup();
    const first = await receiver.handle({ rawBody: Buffer.from(body), headers: signedHeaders(body) });
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(memory.list()).toMatchObject([
      { deliveryId: 'whd_01JD0000000000000000000001', event: JSON.parse(body) },
    ]);
    expect(onEvent).toHaveBeenCalledOnce();

    // Meter's retry: same delivery id and bytes, a fresh timestamp and signature.
    const retry = await receiver.handle({
      rawBody: body,
      headers: signedHeaders(body, { timestamp: NOW - 1000 }),
    });
    expect(retry).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(onEvent).toHaveBeenCalledOnce();
    expect(memory.list()).toHaveLength(1);
  });

  it('accepts another delivery of the same event as a new delivery', async () => {
    const { receiver, memory } = setup();
    await receiver.handle({ rawBody: body, headers: signedHeaders(body) });
    await receiver.handle({ rawBody: body, headers: signedHeaders(body, { deliveryId: 'whd_other' }) });
    expect(memory.list().map((e) => e.deliveryId)).toEqual(['whd_01JD0000000000000000000001', 'whd_other']);
  });

  it('answers 401 with the reason for a bad signature or a stale timestamp, and stores nothing', async () => {
    const { receiver, memory, onEvent } = setup();
    const tampered = await receiver.handle({
      rawBody: body.replace('"acme"', '"evil"'),
      headers: signedHeaders(body),
    });
    expect(tampered).toMatchObject({ status: 401, body: { error: 'invalid_signature' } });
    const stale = await receiver.handle({
      rawBody: body,
      headers: signedHeaders(body, { timestamp: NOW - 5 * 60 * 1000 - 1 }),
    });
    expect(stale).toMatchObject({
      status: 401,
      body: { error: 'timestamp_out_of_tolerance', message: expect.stringContaining('clock') },
    });
    expect(memory.list()).toEqual([]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 400 to a signed body that is not JSON', async () => {
    const { receiver } = setup();
    const result = await receiver.handle({ rawBody: '{oops', headers: signedHeaders('{oops') });
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
  });

  it('throws (a 500 in any framework) when handed a parsed body', async () => {
    const { receiver } = setup();
    await expect(
      receiver.handle({ rawBody: JSON.parse(body), headers: signedHeaders(body) }),
    ).rejects.toThrow(/raw request body/);
  });

  it('accepts deliveries signed with any of `secrets` during a rotation', async () => {
    const store = memoryEventStore();
    const receiver = createWebhookReceiver({
      secrets: ['whsec_old_secret_0123456789', 'whsec_new_secret_0123456789'],
      store,
      now: () => NOW,
    });
    for (const [i, secret] of ['whsec_old_secret_0123456789', 'whsec_new_secret_0123456789'].entries()) {
      const headers = signedHeaders(body, { secret, deliveryId: `whd_${i}` });
      expect((await receiver.handle({ rawBody: body, headers })).status).toBe(200);
    }
    expect(store.list()).toHaveLength(2);
  });

  it('refuses to start without a secret or a store', () => {
    const store = memoryEventStore();
    expect(() => createWebhookReceiver({ store })).toThrow(/secret/);
    expect(() => createWebhookReceiver({ secret: '', store })).toThrow(/secret/);
    expect(() => createWebhookReceiver({ secret: SECRET, store: undefined as never })).toThrow(/store/);
  });

  it('answers 503 while the store fails, and ends with exactly one accepted event once it works', async () => {
    const memory = memoryEventStore();
    let failures = 3;
    const flaky: AcceptedEventStore = {
      async accept(deliveryId, event) {
        if (failures-- > 0) throw new Error('disk full');
        return memory.accept(deliveryId, event);
      },
    };
    const { receiver, onEvent, onError } = setup({ store: flaky });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const headers = signedHeaders(body, { timestamp: NOW - attempt * 1000 });
      statuses.push((await receiver.handle({ rawBody: body, headers })).status);
    }
    expect(statuses).toEqual([503, 503, 503, 200, 200, 200]);
    expect(memory.list()).toHaveLength(1);
    expect(onEvent).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledTimes(3);
    expect(onError.mock.calls[0]![1]).toEqual({
      stage: 'store',
      deliveryId: 'whd_01JD0000000000000000000001',
    });
  });

  it('keeps the store failure out of the answer', async () => {
    const store: AcceptedEventStore = {
      accept: () => Promise.reject(new Error('EACCES: /srv/secret/path')),
    };
    const { receiver } = setup({ store });
    const answer = await receiver.handle({ rawBody: body, headers: signedHeaders(body) });
    expect(answer.status).toBe(503);
    expect(JSON.stringify(answer.body)).not.toContain('/srv');
  });

  it('still answers 200 when onEvent throws: the event is stored, and a retry is a duplicate', async () => {
    const { receiver, memory, onEvent, onError } = setup({
      onEvent: () => {
        throw new Error('downstream down');
      },
    });
    expect((await receiver.handle({ rawBody: body, headers: signedHeaders(body) })).status).toBe(200);
    expect(onError).toHaveBeenCalledWith(expect.any(Error), {
      stage: 'onEvent',
      deliveryId: 'whd_01JD0000000000000000000001',
    });
    expect(memory.list()).toHaveLength(1);
    expect((await receiver.handle({ rawBody: body, headers: signedHeaders(body) })).body).toEqual({
      received: true,
      duplicate: true,
    });
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('processes concurrent copies of one delivery once', async () => {
    const { receiver, memory, onEvent } = setup();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => receiver.handle({ rawBody: body, headers: signedHeaders(body) })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => (a.body as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
    expect(memory.list()).toHaveLength(1);
    expect(onEvent).toHaveBeenCalledOnce();
  });
});
