import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnDemoServer } from '../support/spawn-server.js';

const run = promisify(execFile);
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's tour, exactly as written, pointed at the spawned server. */
function tourScript(baseUrl: string): string {
  const section = readme.slice(readme.indexOf('## A 30-second tour'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no tour block');
  expect(block).toContain('API=http://localhost:3000');
  return block.replace('API=http://localhost:3000', `API=${baseUrl}`);
}

describe('the demo server (npm start) and the README tour', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnDemoServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('prints the demo login and serves the API', async () => {
    expect(server.output()).toContain('demo@meter.local / demo-password');
    const config = await (await fetch(`${server.baseUrl}/api/channel/config`)).json();
    expect(config).toMatchObject({ provider: 'simulated', invoiceExpirySecs: 3600 });
  });

  it('walks the tour: fund, charge, insufficient balance, ledger, webhook', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', tourScript(server.baseUrl)]);
    const lines = stdout.trim().split('\n');
    const parsed = lines.map((l) => JSON.parse(l));
    const [paid, balance, charged, refused, ledger, deliveries, received] = parsed;
    expect(paid.verification).toEqual({ paid: true, alreadyPaid: false });
    expect(balance).toMatchObject({ availableBalance: '1', totalFunded: '1' });
    expect(charged).toMatchObject({ status: 'charged', amount: '0.6', balanceRemaining: '0.4' });
    expect(refused).toMatchObject({ status: 'insufficient_balance', required: '0.6', available: '0.4' });
    expect(ledger.map((l: { direction: string }) => l.direction)).toEqual(['debit', 'credit']);
    expect(deliveries[0]).toMatchObject({ eventType: 'usage.charged', status: 'sent' });
    expect(received[0].event).toMatchObject({ usageEventId: charged.usageEventId, amount: '0.6' });
  }, 60_000);

  it.each([
    [
      'a malformed DATABASE_URL',
      'nosuchdb://x',
      /^Cannot open the database at nosuchdb:\/\/x: DATABASE_URL must start with/,
    ],
    [
      'an unreachable database',
      'postgres://postgres@127.0.0.1:1/none',
      /^Cannot open the database at .*ECONNREFUSED/,
    ],
  ])('stops with one clear line on %s', async (_name, url, line) => {
    const err = (await spawnDemoServer({ DATABASE_URL: url }).catch((e: unknown) => e)) as Error;
    const [, output = ''] = err.message.split(/exited with 1:\n/);
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });
});
