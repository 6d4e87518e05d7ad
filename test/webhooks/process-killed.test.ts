import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFlakyReceiver } from '../support/flaky-receiver.js';
import { apiClient } from '../support/harness.js';
import { type SpawnedServer, spawnDemoServer } from '../support/spawn-server.js';

async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a process killed while a delivery is under way', () => {
  const servers: SpawnedServer[] = [];
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>> | undefined;
  afterEach(async () => {
    for (const s of servers) await s.stop();
    await receiver?.close();
  });

  it('still delivers it after a restart, once', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'meter-kill-')), 'meter.db')}`;
    const env = {
      DATABASE_URL: databaseUrl,
      WEBHOOK_TIMEOUT_MS: '60000',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_POLL_MS: '100',
      JWT_SECRET: 'kill-test-secret-that-is-long-enough-000',
    };
    // The first attempt hangs (the process dies in the middle of it); later ones are accepted.
    receiver = await startFlakyReceiver((n) => (n === 1 ? 'hang' : 200));
    const a = await spawnDemoServer(env);
    servers.push(a);
    const api = apiClient(a.baseUrl);
    const token = (
      await api.post('/api/auth/login', { email: 'demo@meter.local', password: 'demo-password' })
    ).body.token;
    const [service] = (await api.get('/api/services', token)).body;
    await api.put(`/api/services/${service.id}`, { webhookUrl: receiver.url }, token);
    const [customer] = (await api.get('/api/customers', token)).body;
    const pr = await api.post(
      '/api/payment-requests',
      { customerId: customer.id, amount: '1', asset: 'CKB' },
      token,
    );
    await api.post(`/api/payment-requests/${pr.body.id}/simulate-paid`, {}, token);
    const charged = await api.post(
      '/api/usage-events',
      {
        service: 'word-counter',
        customer: 'acme',
        metricKey: 'words',
        quantity: 5,
        idempotencyKey: 'kill-1',
      },
      token,
    );
    expect(charged.body.status).toBe('charged');
    await until(async () => (receiver!.hits.length === 1 ? true : undefined));
    await a.kill();

    // B starts on the same database; its poller takes the delivery once A's lease has run out.
    // (The demo seed points the service back at B's own /demo/webhooks receiver.)
    const b = await spawnDemoServer(env);
    servers.push(b);
    const apiB = apiClient(b.baseUrl);
    const tokenB = (
      await apiB.post('/api/auth/login', { email: 'demo@meter.local', password: 'demo-password' })
    ).body.token;
    const delivery = await until(async () => {
      const [d] = (await apiB.get('/api/webhook-deliveries', tokenB)).body;
      return d?.status === 'sent' ? d : undefined;
    });
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.attempts[0].url).toBe(`${b.baseUrl}/demo/webhooks`);
    const received = (await apiB.get('/demo/webhooks')).body;
    expect(received.map((r: { deliveryId: string }) => r.deliveryId)).toEqual([delivery.id]);
    expect(received[0].event.usageEventId).toBe(charged.body.usageEventId);
  }, 60_000);
});
