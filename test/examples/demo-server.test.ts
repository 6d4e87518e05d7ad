import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedStack, spawnDemoServer, spawnDemoStack } from '../support/spawn-server.js';

const run = promisify(execFile);
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** A README shell block, exactly as written, pointed at the spawned API and demo service. */
function readmeScript(heading: string, stack: SpawnedStack): string {
  const section = readme.slice(readme.indexOf(heading));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`README has no block under ${heading}`);
  expect(block).toContain('API=http://localhost:3000');
  expect(block).toContain('DEMO=http://localhost:3001');
  return block
    .replace('API=http://localhost:3000', `API=${stack.baseUrl}`)
    .replace('DEMO=http://localhost:3001', `DEMO=${stack.demoUrl}`);
}

async function runScript(script: string): Promise<string[]> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script]);
  return stdout.trim().split('\n');
}

describe('npm start (the demo API and the demo service), the README tour and walk-through', () => {
  let stack: SpawnedStack;
  beforeAll(async () => {
    stack = await spawnDemoStack();
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('prints the demo login and both URLs, and serves the API', async () => {
    expect(stack.output()).toContain('demo@meter.local / demo-password');
    expect(stack.output()).toContain(`Webhooks land: ${stack.demoUrl}/webhooks`);
    expect(stack.output()).toContain(
      `Ready: the API on ${stack.baseUrl}, the demo service on ${stack.demoUrl}`,
    );
    const config = await (await fetch(`${stack.baseUrl}/api/channel/config`)).json();
    expect(config).toMatchObject({ provider: 'simulated', invoiceExpirySecs: 3600 });
  });

  it('walks the tour: fund, charge, insufficient balance, ledger, webhook', async () => {
    const lines = await runScript(readmeScript('## A 30-second tour', stack));
    const [paid, balance, charged, refused, ledger, deliveries, received] = lines.map((l) => JSON.parse(l));
    expect(paid.verification).toEqual({ paid: true, alreadyPaid: false });
    expect(balance).toMatchObject({ availableBalance: '1', totalFunded: '1' });
    expect(charged).toMatchObject({ status: 'charged', amount: '0.6', balanceRemaining: '0.4' });
    expect(refused).toMatchObject({ status: 'insufficient_balance', required: '0.6', available: '0.4' });
    expect(ledger.map((l: { direction: string }) => l.direction)).toEqual(['debit', 'credit']);
    expect(deliveries[0]).toMatchObject({ eventType: 'usage.charged', status: 'sent' });
    expect(deliveries[0].attempts[0].url).toBe(`${stack.demoUrl}/webhooks`);
    expect(received[0]).toMatchObject({ deliveryId: deliveries[0].id });
    expect(received[0].event).toMatchObject({ usageEventId: charged.usageEventId, amount: '0.6' });
  }, 60_000);

  it('walks the demo walk-through: fund, call until 402, fund again', async () => {
    // After the tour the customer has 0.4 CKB left; the walk-through adds 1.
    const lines = await runScript(readmeScript('## Demo walk-through', stack));
    expect(lines.shift()).toBe('1.4');
    const calls = lines.splice(0, 15).map((l) => JSON.parse(l));
    expect(calls.slice(0, 14).map((c) => c.charged.balanceRemaining)).toEqual([
      '1.3',
      '1.2',
      '1.1',
      '1',
      '0.9',
      '0.8',
      '0.7',
      '0.6',
      '0.5',
      '0.4',
      '0.3',
      '0.2',
      '0.1',
      '0',
    ]);
    for (const c of calls.slice(0, 14)) expect(c).toMatchObject({ words: 10, charged: { amount: '0.1' } });
    const refusal = calls[14];
    expect(refusal).toMatchObject({ error: 'insufficient_balance', required: '0.1', available: '0' });
    expect(refusal.hint).toMatch(/^Fund the balance/);
    expect(refusal).not.toHaveProperty('words');

    const [status, body, funded, served, received] = lines;
    expect(status).toMatch(/^HTTP\/1\.1 402 Payment Required/);
    expect(JSON.parse(body!)).toMatchObject({ error: 'insufficient_balance', available: '0' });
    expect(funded).toBe('1');
    const again = JSON.parse(served!);
    expect(again).toMatchObject({ words: 10, charged: { balanceRemaining: '0.9', replay: false } });
    expect(again.idempotencyKey).toBe(JSON.parse(body!).idempotencyKey);
    expect(JSON.parse(received!)[0].event).toMatchObject({ type: 'usage.charged', customer: 'acme' });
  }, 60_000);

  it('one signal stops both processes', async () => {
    await stack.stop();
    for (const url of [stack.baseUrl, stack.demoUrl]) {
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    }
  });
});

describe('start-up failures', () => {
  it('the API stops with one clear line on a bad DATABASE_URL', async () => {
    await expect(spawnDemoServer({ DATABASE_URL: 'nosuchdb://x' })).rejects.toThrow(
      /exited with 1:\n.*database/i,
    );
  });

  it('npm start stops as a whole when the API cannot start', async () => {
    await expect(spawnDemoStack({ DATABASE_URL: 'nosuchdb://x' })).rejects.toThrow(
      /exited with 1:\n.*database/i,
    );
  });
});
